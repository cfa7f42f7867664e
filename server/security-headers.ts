import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { ContentSecurityPolicy } from './content-security-policy.ts';

/** 128 bits, base64: the CSP nonce of one response (SPEC §6). */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
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
