/**
 * Digests of Suspense boundaries that failed on the server, as the browser learns them (from
 * the streamed markup, then from React's recoverable errors). When such a boundary fails again
 * in the browser, React hands the error boundary the browser's error, which has no digest:
 * this store lets the error page still name the server-side failure and its digest (docs/status-pages.md).
 * A digest that names a status (below) is kept apart: the page shows that status's view.
 */
type Listener = () => void;

/**
 * A boundary that called notFound() and friends after the shell was sent cannot change the
 * status any more; the server gives it this digest instead, which names the status and its words
 * in the request's language (`status:404:Page introuvable.`), so the page says what the status
 * page would. The colon keeps it apart from error digests, which are base64url
 * (server/observability/digest.ts).
 */
const STATUS_DIGEST_PREFIX = 'status:';

/** A status a page shows in place of a part of it: the status, and the server's words for it when it sent them. */
export interface StatusShown {
  readonly status: number;
  readonly message: string | undefined;
}

export function statusDigest(status: number, message: string): string {
  return `${STATUS_DIGEST_PREFIX}${status}:${message}`;
}

/** The status a digest names, with its words, or undefined for the digest of an error. */
export function statusOfDigest(digest: string | undefined): StatusShown | undefined {
  if (digest === undefined || !digest.startsWith(STATUS_DIGEST_PREFIX)) return undefined;
  const rest = digest.slice(STATUS_DIGEST_PREFIX.length);
  const colon = rest.indexOf(':');
  const status = Number(colon === -1 ? rest : rest.slice(0, colon));
  if (!Number.isInteger(status) || status < 400 || status >= 500) return undefined;
  return { status, message: colon === -1 ? undefined : rest.slice(colon + 1) };
}

let latest: string | undefined;
let lateStatus: StatusShown | undefined;
const listeners = new Set<Listener>();

export function recordServerDigest(digest: string): void {
  const status = statusOfDigest(digest);
  if (status !== undefined) {
    // The first status a page called for is the one it shows, as on the server.
    if (lateStatus !== undefined) return;
    lateStatus = status;
  } else {
    if (digest === latest) return;
    latest = digest;
  }
  for (const listener of listeners) listener();
}

/** The digest of the latest server error; never a status digest. */
export function latestServerDigest(): string | undefined {
  return latest;
}

/** The status a boundary called for after the shell was sent, if one did, with the server's words. */
export function lateServerStatus(): StatusShown | undefined {
  return lateStatus;
}

export function subscribeServerDigests(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
