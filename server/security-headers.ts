import { randomFillSync } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { ContentSecurityPolicy } from './content-security-policy.ts';

const NONCE_BYTES = 16;
/** Random bytes are drawn in batches (as `randomUUID` does): one CSPRNG call per 256 nonces. */
const pool = Buffer.alloc(NONCE_BYTES * 256);
let poolOffset = pool.length;

/** 128 bits from the CSPRNG, base64: the CSP nonce of one response (SPEC §6). Never reused. */
export function createNonce(): string {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const nonce = pool.toString('base64', poolOffset, poolOffset + NONCE_BYTES);
  poolOffset += NONCE_BYTES;
  return nonce;
}

/**
 * helmet's headers on every response, status and error pages included, plus the CSP with a
 * fresh nonce that React and our inline tags receive through `res.locals.cspNonce`.
 */
export function createSecurityHeaders(policy: ContentSecurityPolicy): RequestHandler {
  const helmetHeaders = helmet({ contentSecurityPolicy: false });
  return function securityHeaders(req: Request, res: Response, next: NextFunction) {
    const nonce = createNonce();
    res.locals.cspNonce = nonce;
    res.setHeader('Content-Security-Policy', policy(nonce));
    helmetHeaders(req, res, next);
  };
}
