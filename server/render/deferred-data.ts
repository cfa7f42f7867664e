import { DEFERRED_DATA_ERROR } from '../../shared/protocol/page-data.ts';
import { isPlainObject } from '../../shared/protocol/plain-object.ts';
import { errorForBrowser, pathOf, unsendable, UnsendableValueError, type PathKey } from './sendable-values.ts';

/**
 * Promises anywhere in a page's data (plain objects, arrays, Maps and Sets, any depth) are not
 * awaited before the shell: components read them with React's `use()` inside `<Suspense>`, and
 * each settled value streams to the browser (server/render/data-stream.ts). The same walk
 * checks, on a page that hydrates, that the browser can receive every value (sendable-values.ts).
 * Every promise is replaced by one the server controls, so that
 * - a rejection is logged once, with a digest, and the browser receives only that digest
 *   (plus message and stack in development), never the error itself;
 * - at the render timeout every promise still pending is rejected with the timeout's digest,
 *   so the visitor sees the error view rather than a fallback that never ends.
 */

/** What a rejected deferred value becomes on both sides: the digest, and detail in development. */
export class DeferredDataError extends Error {
  override readonly name = DEFERRED_DATA_ERROR;
  readonly digest: string;
  constructor(digest: string, detail?: { readonly message: string; readonly stack: string | undefined }) {
    super(detail?.message ?? 'A deferred value could not be loaded.');
    this.digest = digest;
    // The server's stack would name server files: the browser gets it only in development.
    this.stack = detail?.stack;
  }
}

export interface DeferredData<T> {
  /** The data with each promise replaced by a controlled one; the caller's value is untouched. */
  readonly value: T;
  /** Whether any promise was found: without one, nothing streams after the shell. */
  readonly hasPending: boolean;
  /** Whether a promise is still pending now. */
  isPending(): boolean;
  /** Rejects every promise still pending (render timeout, client gone). */
  rejectPending(error: DeferredDataError): void;
}

interface Pending {
  readonly reject: (error: DeferredDataError) => void;
}

export interface DeferDataOptions {
  /**
   * Turns a rejection into the error the page may see (it logs the original and picks the
   * digest); also what a settled value the browser cannot receive becomes.
   */
  readonly onRejected: (error: unknown) => DeferredDataError;
  /**
   * Set when the data is sent to the browser (the page hydrates): every value is checked once
   * (sendable-values.ts), and errors are copied as the browser may see them. A page that ships
   * no JavaScript keeps its values as they are.
   */
  readonly browser?: { readonly development: boolean } | undefined;
  /**
   * What the data is called in an UnsendableValueError's message: `''` for data that is an
   * object whose keys name what is in it (`data.user`, `actionData`), as every caller's is.
   */
  readonly path: string;
}

function isThenable(value: object): value is PromiseLike<unknown> {
  return 'then' in value && typeof value.then === 'function';
}

/**
 * Walks `data` once and wraps its promises, looking into plain objects, arrays, Maps and Sets
 * (a copy of each; the caller's value is untouched). With `browser` set, a value the browser
 * cannot receive throws UnsendableValueError (in a settled value: that value rejects with it).
 */
export function deferData<T>(data: T, options: DeferDataOptions): DeferredData<T> {
  return new DeferredWalk(data, options);
}

/**
 * One page's data, walked: the copy, and the promises of it still pending. A class, so that
 * the walk's steps are methods on its prototype rather than closures made again for every page.
 */
class DeferredWalk<T> implements DeferredData<T> {
  readonly value: T;
  readonly hasPending: boolean;
  readonly #pending = new Set<Pending>();
  readonly #onRejected: (error: unknown) => DeferredDataError;
  readonly #browser: { readonly development: boolean } | undefined;

  constructor(data: T, { onRejected, browser, path }: DeferDataOptions) {
    this.#onRejected = onRejected;
    this.#browser = browser;
    // `walk` keeps every value the browser can receive as it was; only promises change, for promises.
    this.value = this.#walk(data, '', path) as T;
    this.hasPending = this.#pending.size > 0;
  }

  isPending(): boolean {
    return this.#pending.size > 0;
  }

  rejectPending(error: DeferredDataError): void {
    for (const entry of this.#pending) entry.reject(error);
    this.#pending.clear();
  }

  /** The value at `key` in the container whose path is `parent`. */
  #walk(value: unknown, parent: string, key: PathKey): unknown {
    // Only data the browser receives is checked, and only there are paths worked out: one per
    // container and per promise; a leaf's only when it cannot be sent.
    const checked = this.#browser !== undefined;
    if (typeof value !== 'object' || value === null) {
      // Stryker disable next-line StringLiteral: equivalent, unsendable() describes every function and symbol
      if (checked && (typeof value === 'function' || typeof value === 'symbol')) throw new UnsendableValueError(pathOf(parent, key), unsendable(value) ?? '');
      return value;
    }
    // Stryker disable next-line StringLiteral: equivalent, unchecked data never reads its paths
    const path = checked ? pathOf(parent, key) : '';
    if (isThenable(value)) return this.#wrap(value, path);
    if (Array.isArray(value)) {
      // Stryker disable next-line ArrayDeclaration: equivalent, assigning every index fills an empty array the same (the length is only a hint)
      const out: unknown[] = new Array(value.length);
      for (let i = 0; i < value.length; i += 1) out[i] = this.#walk(value[i], path, i);
      return out;
    }
    if (isPlainObject(value)) return this.#copyObject(value, path);
    if (value instanceof Map) {
      const out = new Map<unknown, unknown>();
      for (const [mapKey, item] of value) out.set(this.#walk(mapKey, path, 'map key'), this.#walk(item, path, { mapValueOf: mapKey }));
      return out;
    }
    if (value instanceof Set) {
      const out = new Set<unknown>();
      for (const item of value) out.add(this.#walk(item, path, 'set item'));
      return out;
    }
    return this.#leaf(value, path);
  }

  #copyObject(value: Record<string, unknown>, path: string): Record<string, unknown> {
    const out: Record<string, unknown> = Object.getPrototypeOf(value) === null ? Object.create(null) : {};
    for (const name of Object.keys(value)) {
      const item = this.#walk(value[name], path, name);
      // Assigning `__proto__`, a key that JSON from a database may well hold, would replace
      // the copy's prototype: the component would read fields that are not in the data, and
      // that the browser does not have (seroval writes the key as a key).
      // Stryker disable next-line ConditionalExpression,BooleanLiteral: equivalent, defining any other key so makes the property assignment makes, and the copy is only read
      if (name === '__proto__') Object.defineProperty(out, name, { value: item, writable: true, enumerable: true, configurable: true });
      else out[name] = item;
    }
    return out;
  }

  /** Any other object: kept as it is, or, for the browser, an error copied as it may see it, or refused. */
  #leaf(value: object, path: string): unknown {
    const browser = this.#browser;
    if (browser === undefined) return value;
    if (value instanceof Error) return errorForBrowser(value, browser.development, (name, field) => this.#walk(field, path, name));
    const what = unsendable(value);
    if (what !== undefined) throw new UnsendableValueError(path, what);
    return value;
  }

  #wrap(source: PromiseLike<unknown>, path: string): Promise<unknown> {
    const pending = this.#pending;
    const controlled = new Promise<unknown>((resolve, reject) => {
      const entry: Pending = { reject };
      pending.add(entry);
      source.then(
        (value) => {
          // Stopped before it settled (rejectPending): nobody is waiting for it any more.
          if (!pending.delete(entry)) return;
          // A settled value may hold promises of its own, or a value the browser cannot receive.
          let walked: unknown;
          try {
            walked = this.#walk(value, '', path);
          } catch (error) {
            reject(this.#onRejected(error));
            return;
          }
          resolve(walked);
        },
        (error: unknown) => {
          // Stopped before it settled: its rejection reaches no one, so it is not reported either.
          if (!pending.delete(entry)) return;
          reject(this.#onRejected(error));
        },
      );
    });
    // Nobody may read a rejected value (no component uses it): that is not an unhandled rejection.
    controlled.catch(() => undefined);
    return controlled;
  }
}
