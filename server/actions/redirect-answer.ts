import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';
import { NAVIGATION_HEADER, NAVIGATION_REDIRECT_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { isRedirect, type Redirect } from '../../shared/api/answers.ts';
import { isLoggedError } from '../observability/server-error-log.ts';
import { NAVIGATION_VARY } from '../render/document-headers.ts';
import { appHeaders, assertNoSharedCookie, setRouteHeaders } from '../security/app-headers.ts';
import { sameOriginLocation } from './redirect-location.ts';

/**
 * Answers `redirect(location, init)` (docs/responses.md): its status (the default is the
 * caller's: 303 after an action, 302 from `load`) with `Location` made a path of this site, or
 * refused (redirect-location.ts, which throws); `init`'s headers along, the framework's own
 * left out. An in-place navigation or submission gets 204 with the path in
 * `X-Navigation-Redirect` and goes there itself: fetch would follow a 3xx under the page's
 * CSP, whose upgrade-insecure-requests can turn it to https. Never cached unless `init` says
 * otherwise; then never with a cookie a shared cache could give to everyone.
 */
export function sendRedirect(req: Request, res: Response, redirect: Redirect, defaultStatus: 302 | 303, publicOrigin: URL | undefined): void {
  const location = sameOriginLocation(req, redirect.location, publicOrigin);
  const route = res.locals.routePattern ?? null;
  const own = appHeaders(req, route, redirect.headers, 'redirect');
  assertNoSharedCookie(route, own, res.hasHeader('Set-Cookie'));
  const inPlace = req.get(NAVIGATION_HEADER) === 'data';
  res.status(inPlace ? 204 : (redirect.status ?? defaultStatus));
  res.setHeader(inPlace ? NAVIGATION_REDIRECT_HEADER : 'Location', location);
  setRouteHeaders(res, own.headers);
  for (const cookie of own.cookies) res.append('Set-Cookie', cookie);
  res.setHeader('Cache-Control', own.cacheControl ?? 'no-store');
  // A kept 3xx must not answer the navigation runtime's request for the same address, nor the 204 a document's.
  if (own.cacheControl !== undefined) res.vary(NAVIGATION_VARY);
  res.setHeader('Content-Length', 0);
  res.end();
}

/**
 * Answers a `redirect()` thrown where no action runs: in `load`, in the app's `getLoadContext`,
 * in a resource route. Placed before the error handler; any other error goes on to it, and so
 * does a refused location. A redirect thrown while the page rendered (or in a deferred value)
 * has been logged as the error it is there, and ends as one: the 500 page with that digest.
 */
export function createRedirectAnswer(publicOrigin: URL | undefined): ErrorRequestHandler {
  return function answerRedirect(error: unknown, req: Request, res: Response, next: NextFunction) {
    if (!isRedirect(error) || res.headersSent || isLoggedError(error)) {
      next(error);
      return;
    }
    try {
      sendRedirect(req, res, error, 302, publicOrigin);
    } catch (refusal) {
      next(refusal);
    }
  };
}
