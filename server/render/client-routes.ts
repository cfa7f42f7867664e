import { pathToRegexp } from 'path-to-regexp';
import type { ClientRoute } from '../../shared/protocol/page-data.ts';
import { isResourceRoute, type RouteDefinition } from '../../shared/api/route-definition.ts';
import type { ClientAssets } from './client-assets.ts';

/**
 * The route table as the browser needs it to decide where a link goes: in place to a route
 * with code in the client build (and its stylesheets, which the navigation brings first); in full to a route without; in place to an address no route
 * has, where the server's 404 becomes the 404 view. A resource route with an action alone is
 * left out: its GET is a 405 either way, and a form posted to it goes in place, its redirect
 * followed in place (a sign-out). Each path pattern is compiled as Express's
 * router compiles it (path-to-regexp, case-insensitive, an optional trailing slash), so the
 * browser decides exactly as the server routes. Worked out once, when the app is built.
 */
export function clientRoutes(routes: readonly RouteDefinition[], assets: ClientAssets): readonly ClientRoute[] {
  return routes
    .filter((route) => !isResourceRoute(route) || route.load !== undefined)
    .map((route) => {
      const built = route.page === undefined ? undefined : assets.routes.get(route.path);
      const { regexp } = pathToRegexp(route.path, { sensitive: false, end: true, trailing: true });
      return { source: regexp.source, flags: regexp.flags, ...(built === undefined ? {} : { script: built.script, preloads: built.preloads, styles: built.styles }) };
    });
}
