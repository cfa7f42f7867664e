import type { Request, Response } from 'express';
import { NAVIGATION_REDIRECT_HEADER } from '../../shared/protocol/navigation-headers.ts';
import type { HeaderPair } from '../http/response-head.ts';
import { securityHeaderDefaults } from './security-headers.ts';

/**
 * What an answer is: a page (the framework writes its body), a redirect (no body, and its
 * target checked), or a resource route's `Response` (the app's own body); or `context`, the
 * headers the app's `getLoadContext` gives every answer of the request, whichever kind it is.
 */
export type AnswerKind = 'page' | 'redirect' | 'resource' | 'context';

/** The headers a route gave (`data()`, `redirect()`, a resource's `Response`), as the answer takes them. */
export interface AppHeaders {
  /** Every header the answer may carry, in order, but `Cache-Control` and `Set-Cookie`. */
  readonly headers: readonly HeaderPair[];
  /** Each `Set-Cookie` value, one each. */
  readonly cookies: readonly string[];
  /** The route's `Cache-Control`, replacing the framework's default; `undefined` when it gave none. */
  readonly cacheControl: string | undefined;
}

let helmetNames: ReadonlySet<string> | undefined;

/** helmet's headers and Permissions-Policy (security-headers.ts), lowercased as Fetch's Headers yields them. */
function securityNames(): ReadonlySet<string> {
  helmetNames ??= new Set(securityHeaderDefaults().map(([name]) => name.toLowerCase()));
  return helmetNames;
}

/**
 * Whether the framework keeps a header for itself on this kind of answer. The security headers
 * are on every answer (docs/security.md): helmet's, Permissions-Policy, the
 * Content-Security-Policy with the request's nonce; then the request id, the in-place redirect
 * the browser runtime follows, and the hop-by-hop headers (RFC 9110, section 7.6.1: Node frames
 * the message and keeps the connection itself). A page's or a redirect's body is the framework's
 * (or none), so its type, length and encoding are too. A switch, not a set built once: every
 * name is decided on each call, where a test of that call can see it.
 */
function isOwned(name: string, kind: AnswerKind): boolean {
  switch (name) {
    case 'content-security-policy':
    case 'content-security-policy-report-only':
    case 'x-request-id':
    case NAVIGATION_REDIRECT_HEADER:
    case 'connection':
    case 'keep-alive':
    case 'proxy-connection':
    case 'te':
    case 'trailer':
    case 'transfer-encoding':
    case 'upgrade':
      return true;
    case 'content-type':
    case 'content-length':
    case 'content-encoding':
    case 'content-range':
    case 'location':
      return kind !== 'resource';
    // Every answer's, before any route has spoken: the caching each route decides
    // (cache-control.ts merges a branch's; one here would be overwritten or lost).
    case 'cache-control':
    case 'vary':
      return kind === 'context';
    default:
      return securityNames().has(name);
  }
}

/**
 * Sorts a route's headers into what its answer carries, and leaves out those the framework
 * keeps (isOwned): one `warn` line, `app headers left out`, names them (never their values),
 * so a page can never loosen its own Content-Security-Policy or frame options by accident.
 */
export function appHeaders(req: Request, route: string | null, given: Headers, kind: AnswerKind): AppHeaders {
  const headers: HeaderPair[] = [];
  const refused: string[] = [];
  let cacheControl: string | undefined;
  // Fetch's Headers yields names lowercased and sorted, each Set-Cookie on its own.
  for (const [name, value] of given) {
    if (isOwned(name, kind)) refused.push(name);
    else if (name === 'set-cookie') continue;
    else if (name === 'cache-control') cacheControl = value;
    else headers.push([name, value]);
  }
  if (refused.length > 0) req.log.warn({ route, headers: refused }, 'app headers left out');
  return { headers, cookies: given.getSetCookie(), cacheControl };
}

/**
 * Puts a route's headers on its answer: each replaces one of the same name set before it (by
 * the app's `getLoadContext`: server/render/app-context.ts), as a document's head does, but
 * `Vary`, whose names add to those already there.
 */
export function setRouteHeaders(res: Response, headers: readonly HeaderPair[]): void {
  for (const [name, value] of headers) {
    if (name === 'vary') res.appendHeader(name, value);
    else res.setHeader(name, value);
  }
}

/**
 * Whether a shared cache (a CDN, a proxy) may keep the answer and give it to anyone
 * (RFC 9111, sections 3 and 5.2.2): a lifetime or `public`, and neither `private` nor
 * `no-store`. Then it must carry nothing of one visitor's.
 */
export function isSharedCacheable(cacheControl: string | undefined): boolean {
  return cacheControl !== undefined && /(?:^|,)\s*(?:public|s-maxage\s*=|max-age\s*=\s*[1-9])/i.test(cacheControl) && !/(?:^|,)\s*(?:private|no-store)\b/i.test(cacheControl);
}

/** A route asked a shared cache to keep an answer that sets a cookie: refused, as one visitor's cookie would reach everyone. */
export class SharedCacheCookieError extends Error {
  override readonly name = 'SharedCacheCookieError';

  constructor(route: string | null, cacheControl: string) {
    super(
      `Route ${route ?? '(none)'}: an answer with Cache-Control "${cacheControl}" may be kept by a shared cache and given to everyone, so it cannot set a cookie; send the cookie on a private answer, or leave out public and s-maxage`,
    );
  }
}

/** Throws SharedCacheCookieError when the answer may be kept by a shared cache and sets a cookie, whoever set it. */
export function assertNoSharedCookie(route: string | null, own: AppHeaders, alreadySet: boolean): void {
  if (own.cacheControl !== undefined && isSharedCacheable(own.cacheControl) && (own.cookies.length > 0 || alreadySet)) {
    throw new SharedCacheCookieError(route, own.cacheControl);
  }
}
