import { crossSerialize, crossSerializeStream, getCrossReferenceHeader, serialize } from 'seroval';
import { URLPlugin } from 'seroval-plugins/web';
import { DEFERRED_DATA_ERROR, PAGE_DATA_SCOPE } from '../../shared/protocol/page-data.ts';

/**
 * A page's data as JavaScript that rebuilds it in the browser, written into the same response
 * (seroval's cross-reference mode, as SolidStart and TanStack Start use it). The first script
 * builds the value with a pending promise for each deferred one; each later script settles
 * one promise. Every script is inline under the request's nonce, so a strict CSP needs
 * neither `unsafe-inline` nor `unsafe-eval`, and the browser needs no decoder of its own.
 * seroval escapes `<` and U+2028/U+2029 in what it writes, so no value can end the script
 * element or the statement. Why seroval rather than turbo-stream: docs/building-an-app.md.
 */
export interface DataStream {
  /** Runs first, in the document's head: creates the scope and the initial value. */
  readonly initial: string;
  /** Stops listening to the promises still pending (the response is over). */
  dispose(): void;
}

export interface DataStreamOptions {
  /** A settled promise's script, in the order seroval produces them. */
  readonly onScript: (script: string) => void;
  /** Every deferred value has been written: no script follows. */
  readonly onDone: () => void;
  /**
   * seroval could not serialize a settled value (the walk of deferred-data.ts lets none through
   * that it knows of). A value in the initial data is thrown by createDataStream instead.
   */
  readonly onError: (error: unknown) => void;
  /** A script from fixedDataScript, run right after the initial value is in place. */
  readonly fixed?: string | undefined;
}

/**
 * The script that sets `key` on the page's data to `value`, a value the same on every page of
 * the process (the route table for navigation): serialized once, when the app is built, instead
 * of by every page's data stream. That table is most of a page's data: walking it for every page
 * costs about 5 of the 57 KB a page allocates and 3% of its CPU (measured under load). seroval
 * escapes it for a script as it does the rest.
 */
export function fixedDataScript(key: string, value: unknown, scope = PAGE_DATA_SCOPE): string {
  // Stryker disable next-line ObjectLiteral: equivalent for the one value it is given, the route table, which holds no URL
  return `$R[${JSON.stringify(scope)}][0][${JSON.stringify(key)}]=${serialize(value, { plugins: PLUGINS })}`;
}

const PLUGINS = [URLPlugin];
/**
 * A deferred value can reject before the page's code has run and attached React to it; the
 * browser would call that an unhandled rejection. The server has logged it already, and the
 * component that reads it shows it: the page's own rejections are not reported twice.
 */
const QUIET_REJECTIONS = `addEventListener("unhandledrejection",function(e){var r=e.reason;if(r&&r.name===${JSON.stringify(DEFERRED_DATA_ERROR)})e.preventDefault()})`;
const DOCUMENT_HEADER = `${QUIET_REJECTIONS};${getCrossReferenceHeader(PAGE_DATA_SCOPE)}`;
/** A document whose data holds no promise has no rejection to keep quiet. */
const SETTLED_DOCUMENT_HEADER = getCrossReferenceHeader(PAGE_DATA_SCOPE);

/** The first script: the scope's header, the value, then the fixed script if any. */
function initialScript(header: string, script: string, fixed: string | undefined): string {
  // Stryker disable next-line ConditionalExpression: equivalent, without a fixed script the other branch ends in ';undefined', which does nothing
  return fixed === undefined ? `${header};${script}` : `${header};${script};${fixed}`;
}

/** What a settled value's stream stops: nothing, it has nothing left to write. */
function nothingToStop(): void {}

/**
 * The document's data when it holds no promise (deferred-data.ts found none): the script
 * crossSerializeStream would write first, written at once by seroval's `crossSerialize`, with no
 * stream kept open until the page ends, and without the rejection filter, which only deferred
 * values need (150 bytes). Most pages defer nothing: for them this takes about 2 %
 * less CPU per page than the stream (measured with both servers sharing one core under the same
 * load). Throws what seroval cannot write, as createDataStream does.
 */
export function settledDataStream(value: unknown, fixed: string | undefined): DataStream {
  return { initial: initialScript(SETTLED_DOCUMENT_HEADER, crossSerialize(value, { scopeId: PAGE_DATA_SCOPE, plugins: PLUGINS }), fixed), dispose: nothingToStop };
}

/**
 * Serializes `value` into `scope`: the document's own (`page`), or the one an in-place
 * navigation named (checked against NAVIGATION_SCOPE by the caller).
 */
export function createDataStream(value: unknown, { onScript, onDone, onError, fixed }: DataStreamOptions, scope = PAGE_DATA_SCOPE): DataStream {
  let initial: string | undefined;
  let failed: { readonly error: unknown } | undefined;
  // Stryker disable next-line ConditionalExpression: equivalent, DOCUMENT_HEADER is this same header for the document's scope, made once
  const header = scope === PAGE_DATA_SCOPE ? DOCUMENT_HEADER : `${QUIET_REJECTIONS};${getCrossReferenceHeader(scope)}`;
  const dispose = crossSerializeStream(value, {
    scopeId: scope,
    plugins: PLUGINS,
    onSerialize(script, isInitial) {
      if (isInitial) initial = initialScript(header, script, fixed);
      else onScript(script);
    },
    onDone,
    onError(error) {
      if (initial === undefined) failed = { error };
      else onError(error);
    },
  });
  // seroval writes the initial value synchronously, before any promise can settle. Without it
  // nothing was sent yet: the caller's throw becomes the 500 page, with this one error's line.
  // Stryker disable next-line StringLiteral: seroval always writes the initial value or fails with its own error, so this message is never seen
  if (initial === undefined) throw failed?.error ?? new Error('seroval produced no initial value');
  return { initial, dispose };
}
