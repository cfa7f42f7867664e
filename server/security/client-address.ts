import { isIP } from 'node:net';
import type { Request } from 'express';

/** The longest text form of an IPv6 address (with an embedded IPv4 one), plus a short zone id. */
const MAX_ADDRESS_LENGTH = 64;

/**
 * The client's address as `req.ip` gives it (following `trust proxy`) when that is an IP
 * address, else the connection's peer. With TRUST_PROXY=true, `req.ip` is whatever text the
 * left of `X-Forwarded-For` holds; it must not become a rate-limit key (memory) or a log field
 * (any size, any content). docs/security.md.
 */
export function clientAddress(req: Request): string | undefined {
  // No proxy trusted (the default): `req.ip` is the peer's address, and asking Express for it
  // would only walk X-Forwarded-For and check the answer to find that out, on every request.
  if (!req.app.get('trust proxy')) return req.socket.remoteAddress;
  const claimed = req.ip;
  if (claimed !== undefined && claimed.length <= MAX_ADDRESS_LENGTH && isIP(claimed) !== 0) return claimed;
  return req.socket.remoteAddress;
}
