import type { NextFunction, Request, Response } from 'express';
import type { PageDataMeta } from '../../shared/protocol/page-data.ts';
import type { SiteHead } from '../../shared/api/head.ts';
import type { PageRouteDefinition } from '../../shared/api/route-definition.ts';
import type { PageSettings } from '../config.ts';
import { logServerError } from '../observability/server-error-log.ts';
import { bootstrapScript, type ClientAssets } from './client-assets.ts';
import { fixedDataScript } from './data-stream.ts';
import { DeferredDataError } from './deferred-data.ts';
import { streamDocument, type DocumentRoute, type DocumentSettings } from './document-answer.tsx';
import { fetcherPost, sendFetcherAnswer } from './fetcher-answer.ts';
import { navigationScope } from './navigation-request.ts';
import { sendPageData } from './page-data-answer.ts';
import { createPageHeads } from './page-head.ts';
import { preparePage, type PageDataSettings, type PreparedPage } from './prepare-page.ts';
import { startRouteRun, type RouteHandler, type RouteRun, type RouteRunSettings } from './route-run.ts';

/** Everything a page handler is told, grouped by what uses it; resolved once by createApp. */
export interface PageHandlerOptions {
  /** The configured settings of pages (config.ts `PageSettings`), resolved once by createApp: a new one is read from here. */
  readonly pages: PageSettings;
  /** Each request's run (route-run.ts): the render timeout that bounds `load` and the response (docs/rendering.md#render-timeout), the app's context. */
  readonly run: RouteRunSettings;
  /** What the data needs beyond the request (prepare-page.ts). */
  readonly data: PageDataSettings;
  /** How documents are written (document-answer.tsx). */
  readonly document: DocumentSettings;
  /** Head defaults and the origin absolute URLs are made on (page-head.ts). */
  readonly head: { readonly site: SiteHead; readonly publicOrigin: URL | undefined };
  /**
   * The built client, and the URL of the route table's module (route-table-module.ts), which
   * a browser imports to navigate in place; without a build, pages render on the server only.
   */
  readonly client: { readonly assets: ClientAssets | undefined; readonly routeTable: string | undefined };
}

/** A page's data instead of its document, for an in-place navigation (page-data-answer.ts). */
function sendNavigationData(
  page: PreparedPage,
  route: DocumentRoute & { readonly assets: PageDataMeta['assets'] },
  req: Request,
  res: Response,
  scope: string,
  compression: boolean,
): void {
  for (const cookie of page.answer.cookies) res.append('Set-Cookie', cookie);
  if (page.form?.setCookie !== undefined) res.append('Set-Cookie', page.form.setCookie);
  sendPageData(req, res, {
    status: page.answer.status,
    own: page.answer,
    meta: { route: route.path, head: page.head, assets: route.assets },
    value: route.assets === null ? { data: undefined, params: page.params } : page.pageData,
    compression,
    scope,
    onError: (error) => logServerError(req, error),
  });
}

/**
 * One route's pages (docs/rendering.md). Per request: a PageLifecycle bounds it and hears the
 * client leave; preparePage runs `load` and shapes the data; then either the document streams
 * (document-answer.tsx) or, for an in-place navigation, the data alone (page-data-answer.ts).
 * A fetcher's post gets its action's result alone, without any load (fetcher-answer.ts).
 */
export function createPageHandler(routeDefinition: PageRouteDefinition, options: PageHandlerOptions): RouteHandler {
  const { run: runSettings, data: dataSettings, document, client } = options;
  const assets = routeDefinition.page === undefined ? undefined : client.assets?.routes.get(routeDefinition.path);
  if (routeDefinition.page !== undefined && client.assets !== undefined && assets === undefined) {
    throw new Error(`Route ${routeDefinition.path}: its page module is not in the client build (run npm run build)`);
  }
  // Most heads depend neither on the data nor on the path: worked out once, not per request (page-head.ts).
  const heads = createPageHeads(routeDefinition, options.head);
  const route = {
    path: routeDefinition.path,
    failedHead: heads.failed,
    branch: [
      ...(routeDefinition.layouts ?? []).map(({ id, component, ErrorBoundary }) => ({ id, Component: component, ErrorBoundary })),
      { id: routeDefinition.path, Component: routeDefinition.component, ErrorBoundary: routeDefinition.ErrorBoundary },
    ],
    hasBoundary: routeDefinition.ErrorBoundary !== undefined || (routeDefinition.layouts ?? []).some((layout) => layout.ErrorBoundary !== undefined),
    // The route table's module is fetched with the page's code, ready when navigation starts.
    bootstrapScriptContent: assets === undefined ? undefined : bootstrapScript(assets),
    // Each with its text when small enough to travel inside the document (client-assets.ts).
    styles: (assets?.styles ?? []).map((href) => ({ href, css: client.assets?.inlineStyles.get(href) })),
    // Where the route table is, the same on every page: written once (data-stream.ts).
    navigationScript: client.routeTable === undefined ? undefined : fixedDataScript('navigation', client.routeTable),
    // A navigation takes the page's stylesheets from the route table, which it has already (client-routes.ts).
    assets: assets === undefined ? null : { script: assets.script, preloads: assets.preloads },
  };
  // Only a page whose route takes posts hands out a form token (docs/security.md): a read-only
  // page signs nothing and sets no cookie, which is most of a site's pages and most of its CPU.
  const settings = routeDefinition.action === undefined ? { ...dataSettings, formToken: undefined } : dataSettings;
  // A page module hydrates in production, which refuses to start without its client build: its
  // data is checked for the browser even where no build is served (an app's tests), so a value
  // the browser cannot receive fails there as it would in production.
  const prepare = { settings, heads, hydrates: routeDefinition.page !== undefined };

  async function renderPage(req: Request, res: Response, next: NextFunction, run: RouteRun, started: number): Promise<void> {
    const { lifecycle } = run;
    const scope = navigationScope(req);
    const fetched = scope === undefined ? undefined : fetcherPost(req, run);
    if (scope !== undefined && fetched !== undefined) {
      // A fetcher's post: the action's result alone, no load (fetcher-answer.ts).
      sendFetcherAnswer(req, res, {
        route: route.path,
        action: fetched,
        lifecycle,
        scope,
        development: dataSettings.development,
        statusWords: dataSettings.statusWords,
        compression: document.compression,
      });
      return;
    }
    const page = await preparePage(routeDefinition, req, res, run, prepare);
    if (page === undefined) return;
    lifecycle.stopsDeferred((digest) => {
      if (!page.deferred.isPending()) return false;
      page.deferred.rejectPending(new DeferredDataError(digest));
      return true;
    });
    if (scope !== undefined) {
      lifecycle.enter('streaming');
      sendNavigationData(page, route, req, res, scope, document.compression);
      return;
    }
    streamDocument(page, route, { req, res, next, lifecycle, started }, document);
  }

  return {
    get: function showPage(req: Request, res: Response, next: NextFunction) {
      const started = performance.now();
      res.locals.routePattern = route.path;
      return renderPage(req, res, next, startRouteRun(req, res, route.path, runSettings), started);
    },
    afterAction: (req, res, next, run) => renderPage(req, res, next, run, performance.now()),
  };
}
