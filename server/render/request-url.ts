import type { Request } from 'express';
import { HttpError } from '../../shared/api/http-error.ts';

/** RFC 9112 §3.2.2: `http://host/path`. The router reads only its path; so does the app. */
const ABSOLUTE_FORM = /^https?:\/\//i;

/**
 * The path and query of a request target, starting with `/`, without a fragment. Of an
 * absolute-form target only its path and query count: its scheme and host are the client's
 * claim. A path that starts with `//` (or `/\`) stays a path: it never names a host.
 */
export function targetPathAndQuery(target: string): string {
  if (ABSOLUTE_FORM.test(target)) {
    // Every absolute-form target that reaches a route parses (request-target.ts sets the others aside).
    const url = URL.parse(target);
    return url === null ? '/' : `${url.pathname}${url.search}`;
  }
  const fragment = target.indexOf('#');
  const pathAndQuery = fragment === -1 ? target : target.slice(0, fragment);
  return pathAndQuery.startsWith('/') ? pathAndQuery : `/${pathAndQuery}`;
}

/**
 * `pathAndQuery` on `origin` (`https://host[:port]`, no path). Joined as text, never resolved
 * against the origin: `new URL('//evil.example/x', origin)` would take `evil.example` for the host.
 * After the origin, a string that starts with `/` can only be path and query.
 */
export function urlOnOrigin(origin: string, pathAndQuery: string): URL {
  return new URL(`${origin}${pathAndQuery.startsWith('/') ? '' : '/'}${pathAndQuery}`);
}

/**
 * The request's own origin, as Express resolves it (docs/security.md, "Absolute URLs"):
 * `req.protocol` and `req.host`, that is the TLS socket and the `Host` header (checked by
 * malformed-request.ts), or a trusted proxy's `X-Forwarded-Proto` and `X-Forwarded-Host`.
 * A host that still makes no http(s) origin (`a.example:99999`, `a%2F.example`, a forwarded
 * `user@host` or `host/path`, no host at all) is the client's or the proxy's error: 400, logged
 * as a malformed request, never a 500.
 */
export function requestOrigin(req: Request): string {
  const { protocol, host } = req;
  const url = host === undefined ? null : URL.parse(`${protocol}://${host}`);
  if (url !== null && (url.protocol === 'http:' || url.protocol === 'https:') && url.href === `${url.origin}/`) return url.origin;
  const problem = 'Host does not make an origin';
  req.log.info({ problem }, 'malformed request');
  throw new HttpError(400, `Bad Request: ${problem}`);
}

/**
 * The request's absolute URL, the one place the server makes it: the path and query of the
 * request target on `publicOrigin` when one is configured (nothing the client sends changes
 * its host), else on the request's own origin (`requestOrigin`).
 */
export function requestUrl(req: Request, publicOrigin: URL | undefined): URL {
  return urlOnOrigin(publicOrigin?.origin ?? requestOrigin(req), targetPathAndQuery(req.originalUrl));
}
