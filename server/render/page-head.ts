import type { Request } from 'express';
import { headWithinLayouts, resolveHead, type HeadUrlField, type PageHead, type ResolvedHead, type SiteHead } from '../../shared/api/head.ts';
import { routeErrorOf } from '../../shared/api/route-errors.tsx';
import type { RouteDefinition, RouteParams } from '../../shared/api/route-definition.ts';
import { branchLevels, type RouteFailure } from './branch-loads.ts';
import { requestUrl, urlOnOrigin } from './request-url.ts';

/** Path patterns with parameters or wildcards serve many paths, so many canonical URLs. */
const VARIABLE_PATH = /[:*]/;

export interface PageHeadOptions {
  readonly site: SiteHead;
  /** Canonical and Open Graph URLs are made on it; without it there are none but absolute ones. */
  readonly publicOrigin: URL | undefined;
}

/** The head tags of one request to a route. */
export type HeadFor = (req: Request, data: unknown, params: RouteParams) => ResolvedHead;

/** A route's heads: of its page, and of its page when a load failed and an `ErrorBoundary` shows instead. */
export interface PageHeads {
  readonly of: HeadFor;
  /**
   * The head while the boundary at `failure.at` shows: its module's `errorHead`, else the status
   * page's title, inside the layouts' heads, `noindex` unless `errorHead` says otherwise.
   */
  readonly failed: (failure: RouteFailure) => ResolvedHead;
}

const NO_URLS = { origin: undefined, pageUrl: undefined, onUnusable: () => undefined };

/** Both heads of a route (createHeadFor, and the failure's). */
export function createPageHeads(route: RouteDefinition, options: PageHeadOptions): PageHeads {
  const layoutHeads = (route.layouts ?? []).map((layout) => layout.head);
  const levels = route.component === undefined ? [] : branchLevels(route);
  /** By the title, `STATUS: MESSAGE`: a status's head per language its words come in. */
  const failedHeads = new Map<string, ResolvedHead>();
  const statusHead = (title: string): PageHead => ({ title, robots: 'noindex' });
  return {
    of: createHeadFor(route, options),
    failed({ at, status, error }) {
      const errorHead = levels[at]?.errorHead;
      // The status page's title, in the words the failure carries (the request's language).
      const title = `${status}: ${error.statusText}`;
      // Its own head depends on the error: worked out each time; the status's is kept.
      if (errorHead !== undefined) return resolveHead(headWithinLayouts(layoutHeads, { ...statusHead(title), ...errorHead(routeErrorOf(error)) }), options.site, NO_URLS);
      let head = failedHeads.get(title);
      if (head === undefined) {
        head = resolveHead(headWithinLayouts(layoutHeads, statusHead(title)), options.site, NO_URLS);
        failedHeads.set(title, head);
      }
      return head;
    },
  };
}

/**
 * Works out a route's head (docs/building-an-app.md, "Head tags"). The default canonical URL is
 * the request's path on the public origin (request-url.ts: the client's target never moves its
 * host). A URL from data that makes no http(s) URL is left out with one warn line naming the
 * route and the field. A head that depends neither on the data nor on the path is worked out
 * once, here, and a URL in it that makes no http(s) URL stops the app at start instead.
 */
export function createHeadFor(route: RouteDefinition, { site, publicOrigin }: PageHeadOptions): HeadFor {
  const { head } = route;
  const layoutHeads = (route.layouts ?? []).map((layout) => layout.head);
  const declaredHead = (data: unknown, params: RouteParams): PageHead => headWithinLayouts(layoutHeads, typeof head === 'function' ? head(data, params) : (head ?? {}));

  if (typeof head !== 'function' && !VARIABLE_PATH.test(route.path)) {
    const fixed = resolveHead(declaredHead(undefined, {}), site, {
      origin: publicOrigin,
      pageUrl: publicOrigin === undefined ? undefined : urlOnOrigin(publicOrigin.origin, route.path).href,
      onUnusable(field: HeadUrlField) {
        throw new Error(`Route ${route.path}: head ${field} is not an http(s) URL, nor a path on the public origin`);
      },
    });
    return function fixedHead() {
      return fixed;
    };
  }

  return function headOfRequest(req: Request, data: unknown, params: RouteParams): ResolvedHead {
    return resolveHead(declaredHead(data, params), site, {
      origin: publicOrigin,
      pageUrl: publicOrigin === undefined ? undefined : pageUrlOf(req, publicOrigin),
      onUnusable(field: HeadUrlField) {
        req.log.warn({ route: route.path, field }, 'head URL left out');
      },
    });
  };
}

/** The canonical default: the request's URL on the public origin, without its query. */
function pageUrlOf(req: Request, publicOrigin: URL): string {
  const url = requestUrl(req, publicOrigin);
  url.search = '';
  return url.href;
}
