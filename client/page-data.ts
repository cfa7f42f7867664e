import { PAGE_DATA_SCOPE, type EmbeddedPageData } from '../shared/protocol/page-data.ts';
import { isPlainObject } from '../shared/protocol/plain-object.ts';

/** React's protocol for a thenable whose outcome is already known: `use()` reads it at once. */
interface TrackedPromise extends Promise<unknown> {
  status?: 'fulfilled' | 'rejected';
  value?: unknown;
  reason?: unknown;
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

/** The value the server's data scripts built in `self.$R[scope][0]` (server/render/data-stream.ts). */
export function valueIn(scope: string): unknown {
  const scopes: unknown = Reflect.get(globalThis, '$R');
  const values: unknown = typeof scopes === 'object' && scopes !== null ? Reflect.get(scopes, scope) : undefined;
  return Array.isArray(values) ? values[0] : undefined;
}

/**
 * A page's data as the server's first data script left it in `self.$R[scope][0]`
 * (server/render/data-stream.ts): deferred values are promises that later scripts settle.
 */
export function pageDataIn(scope: string): EmbeddedPageData | undefined {
  const root = valueIn(scope);
  if (!isEmbeddedPageData(root)) return undefined;
  trackPromises(root.data);
  return root;
}

/** The document's own page data. */
export function readPageData(): EmbeddedPageData {
  return pageDataIn(PAGE_DATA_SCOPE) ?? { data: undefined, params: {} };
}
