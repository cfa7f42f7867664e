import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ClientRoute } from '../../shared/protocol/page-data.ts';
import { TELEMETRY_PATH } from '../../shared/protocol/telemetry.ts';
import { prefersJson } from '../http/prefers-json.ts';
import { ASSETS_PATH } from './client-assets.ts';
import { navigationScope } from './navigation-request.ts';

/**
 * What the framework answers itself (built files, telemetry, probes, the favicon): a missing
 * `/assets/x.js` is the plain 404 status page, never the app's page with its code, whatever the
 * app's not-found page would show. Case-insensitive, as Express routes.
 */
const FRAMEWORK_PATHS = `(?:${ASSETS_PATH}|${TELEMETRY_PATH}|/(?:healthz|readyz|favicon\\.svg|favicon\\.ico)/?$)`;
const FRAMEWORK_PATH = new RegExp(`^${FRAMEWORK_PATHS}`, 'i');

/**
 * The app's not-found page (shared/api/not-found-route.ts) in front of its route's handler, mounted
 * for GET and HEAD alone: only for an address outside the framework's, and not for a client that
 * prefers JSON (unless it is an in-place navigation, whose data is the page's). Everything else
 * goes on to the plain 404 status answer, other methods included, as before: never a 405.
 */
export function createNotFoundPage(showPage: RequestHandler): RequestHandler {
  return function notFoundPage(req: Request, res: Response, next: NextFunction) {
    if (FRAMEWORK_PATH.test(req.path) || (navigationScope(req) === undefined && prefersJson(req))) {
      next();
      return;
    }
    // Returned: Express 5 hands a rejected render (a load that threw) to the error handler.
    return showPage(req, res, next);
  };
}

/**
 * The not-found page in the browser's route table: last, as on the server, and never for the
 * framework's addresses, which a link loads in full as before.
 */
export function notFoundClientRoute(route: ClientRoute): ClientRoute {
  if (!route.source.startsWith('^')) throw new Error(`The not-found route's pattern ${route.source} is not anchored`);
  return { ...route, source: `^(?!${FRAMEWORK_PATHS})${route.source.slice(1)}` };
}
