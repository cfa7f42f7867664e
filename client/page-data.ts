import { PAGE_DATA_SCOPE, type EmbeddedPageData } from '../shared/page-data.ts';

/** React's protocol for a thenable whose outcome is already known: `use()` reads it at once. */
interface TrackedPromise extends Promise<unknown> {
  status?: 'fulfilled' | 'rejected';
  value?: unknown;
  reason?: unknown;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Records each deferred value's outcome on its promise as React reads it, so a boundary whose
 * value has already arrived hydrates in the same pass instead of suspending for a tick.
 */
function trackPromises(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  if (value instanceof Promise) {
    const promise: TrackedPromise = value;
    promise.then(
      (settled) => {
        promise.status = 'fulfilled';
        promise.value = settled;
        trackPromises(settled);
      },
      (reason: unknown) => {
        promise.status = 'rejected';
        promise.reason = reason;
      },
    );
    return;
  }
  if (Array.isArray(value)) value.forEach(trackPromises);
  else if (isPlainObject(value)) Object.values(value).forEach(trackPromises);
}

function isEmbeddedPageData(value: unknown): value is EmbeddedPageData {
  return typeof value === 'object' && value !== null && 'params' in value;
}

/** The page's data, first in its scope: `self.$R[scope][0]`, as the server's scripts build it. */
function pageDataRoot(): unknown {
  const scopes: unknown = Reflect.get(globalThis, '$R');
  if (typeof scopes !== 'object' || scopes === null) return undefined;
  const scope: unknown = Reflect.get(scopes, PAGE_DATA_SCOPE);
  return Array.isArray(scope) ? scope[0] : undefined;
}

/**
 * The page's data as the server's first data script left it (server/render/data-stream.ts):
 * deferred values are promises that later scripts in the same response settle.
 */
export function readPageData(): EmbeddedPageData {
  const root = pageDataRoot();
  if (!isEmbeddedPageData(root)) return { data: undefined, params: {} };
  trackPromises(root.data);
  return root;
}
