import { timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { HttpError } from '../../shared/api/http-error.ts';
import { FORM_TOKEN_FIELD } from '../../shared/protocol/form-token-field.ts';
import { createHmacSigner, type HmacSigner } from './hmac-signer.ts';
import { randomText } from './random-pool.ts';

/** `CSRF_SECRET` and shorter secrets are refused. */
export const CSRF_SECRET_MIN_LENGTH = 32;

/** The cookie half of the double-submit token; the form field `_csrf` is the other half. */
export const CSRF_COOKIE = 'csrf';

/** Why a post was refused: the `reason` field of the one `csrf refused` warning. */
export type CsrfRefusal = 'cross-site' | 'same-site' | 'unknown sec-fetch-site' | 'origin null' | 'origin mismatch' | 'missing token' | 'token mismatch' | 'bad signature';

export interface CsrfOptions {
  /** Signs the tokens: every instance serving the same site needs the same one. Never logged. */
  readonly secret: string;
  /** The site's public origin; without it, the request's own as Express resolves it. */
  readonly publicOrigin: URL | undefined;
}

/** 128 random bits, base64url: the part of a token the signature covers. */
const NONCE_BYTES = 16;
const NONCE = /^[A-Za-z0-9_-]{22}$/;

/** `nonce.signature`: a fresh token signed by `signer`. */
function freshToken(signer: HmacSigner): string {
  const nonce = randomText(NONCE_BYTES, 'base64url');
  return `${nonce}.${signer.sign(nonce)}`;
}

/** `nonce.signature`: a fresh token signed with `secret`. */
export function issueToken(secret: string): string {
  return freshToken(createHmacSigner([secret]));
}

/** Compares in time that depends on the lengths only. */
function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The token carries a signature the signer's secret made. */
function isSignedToken(signer: HmacSigner, token: string): boolean {
  const dot = token.indexOf('.');
  // Stryker disable next-line ConditionalExpression,UnaryOperator: equivalent, a token without a dot fails the NONCE test or the signature below
  if (dot === -1) return false;
  const nonce = token.slice(0, dot);
  if (!NONCE.test(nonce)) return false;
  return signer.verify(nonce, token.slice(dot + 1));
}

function assertSecret(secret: string): void {
  if (secret.length < CSRF_SECRET_MIN_LENGTH) {
    throw new Error(`The form token secret must be at least ${CSRF_SECRET_MIN_LENGTH} characters (CSRF_SECRET)`);
  }
}

function cookieToken(req: Request): string | undefined {
  const header = req.headers.cookie;
  return header === undefined ? undefined : parseCookie(header)[CSRF_COOKIE];
}

// Stryker disable BlockStatement: equivalent, an empty catch in the two functions below returns undefined as well
/** The origin a same-origin post carries: the public one, else the request's own. */
function expectedOrigin(req: Request, publicOrigin: URL | undefined): string | undefined {
  if (publicOrigin !== undefined) return publicOrigin.origin;
  if (req.host === undefined) return undefined;
  try {
    return new URL(`${req.protocol}://${req.host}`).origin;
  } catch {
    return undefined;
  }
}

function originOf(header: string): string | undefined {
  try {
    return new URL(header).origin;
  } catch {
    return undefined;
  }
}
// Stryker restore BlockStatement

/** What the browser's headers say of a post: a refusal, let through, or ask the form's token. */
type HeaderVerdict = CsrfRefusal | 'same origin' | 'ask the token';

/** The first two rules: the browser's `Sec-Fetch-Site`, else its `Origin`; neither sent: the token decides. */
function verdictOfHeaders(req: Request, publicOrigin: URL | undefined): HeaderVerdict {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) {
    // `none`: the user typed or bookmarked it; no other site had a hand in it.
    if (site === 'same-origin' || site === 'none') return 'same origin';
    if (site === 'same-site' || site === 'cross-site') return site;
    return 'unknown sec-fetch-site';
  }
  const origin = req.headers.origin;
  if (origin !== undefined) {
    // Privacy-sensitive contexts (sandboxed frames, some redirects) send `null`: never trusted.
    if (origin === 'null') return 'origin null';
    const expected = expectedOrigin(req, publicOrigin);
    return expected !== undefined && originOf(origin) === expected ? 'same origin' : 'origin mismatch';
  }
  return 'ask the token';
}

/**
 * The rules of docs/security.md ("Cross-site request forgery"), in order: the browser's
 * `Sec-Fetch-Site`, else its `Origin`, else the signed double-submit token. `undefined` lets the
 * request through.
 */
function refusalOf(req: Request, signer: HmacSigner, publicOrigin: URL | undefined): CsrfRefusal | undefined {
  const verdict = verdictOfHeaders(req, publicOrigin);
  if (verdict === 'same origin') return undefined;
  if (verdict !== 'ask the token') return verdict;
  // An old browser that sends neither header: the form must carry the cookie's token.
  const fromCookie = cookieToken(req);
  const body: unknown = req.body;
  const fromForm = typeof body === 'object' && body !== null ? Reflect.get(body, FORM_TOKEN_FIELD) : undefined;
  if (fromCookie === undefined || fromCookie === '' || typeof fromForm !== 'string' || fromForm === '') return 'missing token';
  if (!sameText(fromCookie, fromForm)) return 'token mismatch';
  return isSignedToken(signer, fromForm) ? undefined : 'bad signature';
}

/**
 * Refuses a state-changing request another site could have made (docs/security.md): the 403
 * status page and one `warn` line, `csrf refused`, with the reason. Runs after the body is
 * parsed (the token may be in it) and before the action. Neither token nor cookie is logged.
 */
export function createCsrfCheck(options: CsrfOptions): RequestHandler {
  assertSecret(options.secret);
  const signer = createHmacSigner([options.secret]);
  return function checkCsrf(req: Request, res: Response, next: NextFunction) {
    refuseOrPass(req, res, next, refusalOf(req, signer, options.publicOrigin));
  };
}

/**
 * The same check's first two rules, before the body is read: a post the browser's headers
 * already refuse gets its 403 without a byte of its body read, which for an upload may be
 * megabytes. One the headers let through, or that needs its token, goes on to the body and then
 * to the whole check (createCsrfCheck).
 */
export function createCsrfHeaderCheck(options: CsrfOptions): RequestHandler {
  assertSecret(options.secret);
  return function checkCsrfHeaders(req: Request, res: Response, next: NextFunction) {
    const verdict = verdictOfHeaders(req, options.publicOrigin);
    refuseOrPass(req, res, next, verdict === 'same origin' || verdict === 'ask the token' ? undefined : verdict);
  };
}

function refuseOrPass(req: Request, res: Response, next: NextFunction, reason: CsrfRefusal | undefined): void {
  if (reason === undefined) {
    next();
    return;
  }
  req.log.warn({ reason, route: res.locals.routePattern ?? null }, 'csrf refused');
  next(new HttpError(403));
}

/** A page's form token, and the `Set-Cookie` value that gives it to the browser when it has none yet. */
export interface FormToken {
  readonly token: string;
  readonly setCookie: string | undefined;
}

/**
 * The page handler's `formToken` (server/render/page-handler.tsx): the request's token when its
 * cookie holds a validly signed one, else a fresh one with its `csrf` cookie (`HttpOnly`,
 * `SameSite=Lax`, `Path=/`, `Secure` over https). The page handler puts the cookie in the
 * document's head, which it writes whole (a header set beforehand sends Node's `writeHead` down
 * its slower path), so it is returned, not set.
 */
export function createFormTokenIssuer(options: CsrfOptions): (req: Request) => FormToken {
  const { secret, publicOrigin } = options;
  assertSecret(secret);
  const signer = createHmacSigner([secret]);
  return function formToken(req: Request): FormToken {
    const current = cookieToken(req);
    if (current !== undefined && isSignedToken(signer, current)) return { token: current, setCookie: undefined };
    const token = freshToken(signer);
    const secure = req.secure || publicOrigin?.protocol === 'https:';
    return { token, setCookie: stringifySetCookie({ name: CSRF_COOKIE, value: token, httpOnly: true, sameSite: 'lax', path: '/', secure }) };
  };
}
