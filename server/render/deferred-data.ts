import { DEFERRED_DATA_ERROR } from '../../shared/page-data.ts';
import { isPlainObject } from '../../shared/plain-object.ts';

/**
 * Promises anywhere in a page's data (plain objects and arrays, any depth) are not awaited
 * before the shell: components read them with React's `use()` inside `<Suspense>`, and each
 * settled value streams to the browser (server/render/data-stream.ts). Every promise is
 * replaced by one the server controls, so that
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

function isThenable(value: object): value is PromiseLike<unknown> {
  return 'then' in value && typeof value.then === 'function';
}

/**
 * Walks `data` once and wraps its promises. `onRejected` turns a rejection into the error the
 * page may see (it logs the original and picks the digest).
 */
export function deferData<T>(data: T, onRejected: (error: unknown) => DeferredDataError): DeferredData<T> {
  const pending = new Set<Pending>();

  function wrap(source: PromiseLike<unknown>): Promise<unknown> {
    const controlled = new Promise<unknown>((resolve, reject) => {
      const entry: Pending = { reject };
      pending.add(entry);
      source.then(
        (value) => {
          pending.delete(entry);
          // A settled value may hold promises of its own.
          resolve(walk(value));
        },
        (error: unknown) => {
          pending.delete(entry);
          reject(onRejected(error));
        },
      );
    });
    // Nobody may read a rejected value (no component uses it): that is not an unhandled rejection.
    controlled.catch(() => undefined);
    return controlled;
  }

  function walk(value: unknown): unknown {
    if (typeof value !== 'object' || value === null) return value;
    if (isThenable(value)) return wrap(value);
    if (Array.isArray(value)) return value.map(walk);
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = walk(item);
    return out;
  }

  // `walk` keeps every non-promise value as it was; only promises change, for promises.
  const value = walk(data) as T;
  return {
    value,
    hasPending: pending.size > 0,
    isPending: () => pending.size > 0,
    rejectPending(error) {
      for (const entry of pending) entry.reject(error);
      pending.clear();
    },
  };
}
