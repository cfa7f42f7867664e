import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';

/** docs/observability.md: letters, digits, `-`, `_`, `.`, at most 128 characters. */
export const VALID_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** What Express compiles `trust proxy` into (proxy-addr): is the peer at hop `i` a trusted proxy? */
type TrustFunction = (address: string, hop: number) => boolean;

/**
 * The same decision Express makes for `X-Forwarded-For`: the connection's peer is one of the
 * proxies `trust proxy` names. Anyone else could pick the id, and with it another request's log
 * lines or a value that collides on purpose.
 */
function fromTrustedProxy(req: IncomingMessage): boolean {
  const trust: unknown = (req as Partial<Request>).app?.get('trust proxy fn');
  const peer = req.socket.remoteAddress;
  return typeof trust === 'function' && peer !== undefined && (trust as TrustFunction)(peer, 0) === true;
}

/**
 * Keeps a well-formed incoming `X-Request-Id` from a trusted proxy (so the proxy's id follows
 * the request through) and replaces anything else. The answer echoes it: written with the head
 * (server/http/response-head.ts).
 */
export function assignRequestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming) && fromTrustedProxy(req) ? incoming : randomUUID();
}
