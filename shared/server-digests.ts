/**
 * Digests of Suspense boundaries that failed on the server, as the browser learns them (from
 * the streamed markup, then from React's recoverable errors). When such a boundary fails again
 * in the browser, React hands the error boundary the browser's error, which has no digest:
 * this store lets the error page still name the server-side failure and its digest (docs/status-pages.md).
 */
type Listener = () => void;

let latest: string | undefined;
const listeners = new Set<Listener>();

export function recordServerDigest(digest: string): void {
  if (digest === latest) return;
  latest = digest;
  for (const listener of listeners) listener();
}

export function latestServerDigest(): string | undefined {
  return latest;
}

export function subscribeServerDigests(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
