import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { APP_NAME } from '../shared/wording/app-info.ts';
import type { ResolvedApp } from './app-definition.ts';
import { DEFAULTS, PAGE_DEFAULTS, type PageSettings, type TrustProxy } from './config.ts';
import { resolveAnalytics, type AnalyticsOptions, type AnalyticsScripts } from './render/analytics.ts';
import { ASSETS_PATH, type ClientAssets } from './render/client-assets.ts';
import { createContentSecurityPolicy, styleHashSource, type ContentSecurityPolicy, type PolicySources } from './security/content-security-policy.ts';
import { createErrorHandler, createMethodNotAllowedHandler, createNotFoundHandler } from './errors/error-handler.ts';
import { FAVICON_PATH, sendFavicon } from './static/favicon.ts';
import { createAppReadiness } from './lifecycle/app-readiness.ts';
import { alwaysReady, createHealthProbes, type Readiness } from './lifecycle/readiness.ts';
import { createOverloadGuard, type OverloadGuardOptions, type OverloadLimits } from './lifecycle/overload-guard.ts';
import { createHttpLogger } from './observability/http-logger.ts';
import { createServerErrorReporter, reportServerErrors } from './observability/error-hook.ts';
import { createPageRequest } from './render/request-context.ts';
import { labelRoute } from './observability/label-route.ts';
import { liveReloadScript } from './render/live-reload.ts';
import { createMalformedRequestCheck, MAX_BODY_BYTES } from './errors/malformed-request.ts';
import { closeConnectionUnlessBodyRead } from './http/body-limit.ts';
import type { Metrics } from './observability/metrics.ts';
import { createMetricsMiddleware } from './observability/metrics-middleware.ts';
import { createPageHandler, type PageHandlerOptions } from './render/page-handler.tsx';
import { routePathProblem } from './render/route-path.ts';
import { createDocumentHeaders } from './render/document-headers.ts';
import { clientRoutes } from './render/client-routes.ts';
import { routeTableModule } from './render/route-table-module.ts';
import { assignNonce, securityHeaderDefaults } from './security/security-headers.ts';
import { installResponseHead } from './http/response-head.ts';
import { createCsrfCheck, createCsrfHeaderCheck, createFormTokenIssuer, type CsrfOptions } from './security/csrf.ts';
import { createActionHandler } from './actions/action-handler.ts';
import { createRedirectAnswer } from './actions/redirect-answer.ts';
import { createResourceHandler } from './render/resource-route.ts';
import { flattenRoutes, isResourceRoute, type RouteDefinition } from '../shared/api/route-definition.ts';
import { ACTION_BODY_LIMIT_BYTES, createFormBodyParser } from './actions/form-body.ts';
import { createMultipartBodyParser, resolveUploadLimits, type UploadLimits } from './actions/multipart-body.ts';
import { createStaticAssets } from './static/static-assets.ts';
import { createStatusPages, type StatusPages } from './errors/status-pages.ts';
import { statusPageSettings } from './errors/status-page-settings.ts';
import { notFoundRoute } from '../shared/api/not-found-route.ts';
import { createNotFoundPage, notFoundClientRoute } from './render/not-found-page.ts';
import type { StatusWords } from './render/status-words.ts';
import { createTelemetryRouter } from './telemetry/telemetry-endpoints.ts';

export interface AppOptions {
  /** The app: its routes, head defaults, load context and middleware (app/app.ts, with its settings read). */
  readonly app: ResolvedApp;
  readonly logger: Logger;
  /** Built client files and manifest. Without them pages render on the server only. */
  readonly assets?: ClientAssets | undefined;
  /** Absolute URLs and the error page's host come from here, never from request headers. */
  readonly publicOrigin?: URL | undefined;
  /** Which peers' `X-Forwarded-*` headers to believe. Default: none. */
  readonly trustProxy?: TrustProxy;
  /**
   * What pages and resource routes are bound by (`PageSettings`: the render timeout, default
   * 10 s; compression, default on), handed to the page handlers as one group: each left out
   * takes its default (`PAGE_DEFAULTS`).
   */
  readonly pages?: Partial<PageSettings> | undefined;
  /** Shows error messages and stacks on the error page. Default false: never in production. */
  readonly development?: boolean;
  /** `/readyz` answers 503 once this says so. Default: always ready. */
  readonly readiness?: Readiness;
  /** Development only: pages listen here for `npm run dev`'s reload events. */
  readonly liveReloadUrl?: URL | undefined;
  /** The hosting provider's analytics scripts (docs/observability.md). Default: off. */
  readonly analytics?: AnalyticsOptions;
  /** First-party web vitals and client error reports (docs/observability.md). Default: off. */
  readonly telemetry?: { readonly enabled: boolean; readonly ratePerMinute?: number };
  /**
   * Refuse new requests with 503 and `Retry-After` while the process is saturated
   * (docs/security.md#overload). Default: off; start-server.ts passes the configured limits.
   */
  readonly overload?: (OverloadLimits & Pick<OverloadGuardOptions, 'readings' | 'sampleIntervalMs' | 'logIntervalMs' | 'delayNeedsInFlight'>) | undefined;
  /** Prometheus series to record into; served by main.ts on its own port. Default: none. */
  readonly metrics?: Metrics | undefined;
  /**
   * Form posts to routes with an `action` (docs/building-an-app.md): `secret` signs the form
   * tokens of the cross-site check (docs/security.md), at least 32 characters, the same on
   * every instance (`CSRF_SECRET`). Required when a route has an action; unused otherwise.
   */
  readonly forms?: { readonly secret: string } | undefined;
}

/**
 * Builds the application without listening, so tests can hand it to supertest.
 * Order matters: logging and request ids first so every answer is logged and carries an id;
 * security headers before anything can answer; malformed requests stopped before routing; the
 * 404 handler and the error handler last.
 */
export function createApp(options: AppOptions): Express {
  const { logger, assets, publicOrigin, metrics, development = false } = options;
  // Each route with the layouts around it (shared/api/route-definition.ts), each path one Express 5 reads.
  const routes = flattenRoutes(options.app.routes);
  for (const { path } of routes) {
    const problem = routePathProblem(path);
    if (problem !== undefined) throw new Error(`Route ${path}: ${problem}`);
  }
  // The page a layout shows for an address no route has, after every route (shared/api/not-found-route.ts).
  const missing = notFoundRoute(options.app.routes);
  const analytics = resolveAnalytics(options.analytics);
  const liveReloadUrl = development ? options.liveReloadUrl : undefined;
  const policy = pagePolicy(assets, analytics, liveReloadUrl, options.app.contentSecurityPolicy);
  // Status pages carry the site's language and direction, as its pages (a page's own head cannot reach them),
  // unless the app words them in other languages; and its stylesheet or component, when it gives them.
  const pages = createStatusPages(
    analytics,
    options.app.site,
    statusPageSettings(options.app.statusPages, assets, (req) => createPageRequest(req, publicOrigin)),
  );
  const app = express();
  const { onError } = options.app;
  // The app's error tracker is given each server error after its one log line, as a load sees the request.
  if (onError !== undefined)
    reportServerErrors(
      app,
      createServerErrorReporter(onError, (req) => createPageRequest(req, publicOrigin)),
    );

  app.disable('x-powered-by');
  // Every HTML answer carries a fresh nonce, so an ETag could never match.
  app.set('etag', false);
  app.set('trust proxy', options.trustProxy ?? false);

  const readiness = options.readiness ?? alwaysReady;
  const overload = overloadGuard(options, pages);
  const uploads = options.app.uploads === undefined ? undefined : resolveUploadLimits(options.app.uploads);
  // Every answer's head gets the request id and the security headers as it is written, and
  // Connection: close once shutdown has begun, so proxies stop reusing connections to this instance.
  installResponseHead(app, { defaults: securityHeaderDefaults(), policy, closing: () => !readiness.isReady() });
  // The edge, which every request passes in this order, a router layer each, as Express runs them.
  app.use(
    createHttpLogger(logger),
    ...(metrics === undefined ? [] : [createMetricsMiddleware(metrics)]),
    assignNonce,
    closeConnectionUnlessBodyRead,
    // A declared body larger than any route reads gets 413 here: one an app's uploads allow passes.
    createMalformedRequestCheck(Math.max(MAX_BODY_BYTES, uploads?.maxBodyBytes ?? 0)),
    // After the request id and the logger, so a refusal has its completion line; before anything costly.
    ...(overload === undefined ? [] : [overload.refuseWhenOverloaded]),
  );
  // Built files first: most requests of a page's load are for them.
  const routeTable = mountBuiltFiles(app, routes, assets, missing);
  const appReady = options.app.readinessCheck === undefined ? undefined : createAppReadiness(options.app.readinessCheck, logger);
  app.use(createHealthProbes(readiness, overload, appReady));
  app.get([FAVICON_PATH, '/favicon.ico'], sendFavicon);
  const telemetry = options.telemetry?.enabled === true;
  if (telemetry) {
    const ratePerMinute = options.telemetry?.ratePerMinute ?? DEFAULTS.telemetryRatePerMinute;
    app.use(createTelemetryRouter({ routePatterns: [...routes, ...(missing === undefined ? [] : [missing])].map((route) => route.path), metrics, ratePerMinute }));
  }
  const { middleware } = options.app;
  if (middleware !== undefined) {
    // The app's own middleware and routes, after the edge and before the pages.
    const router = express.Router();
    middleware(router);
    app.use(router);
  }
  const csrf = formChecks(routes, options.forms, publicOrigin);
  const reload = liveReloadUrl === undefined ? undefined : liveReloadScript(liveReloadUrl);
  const page = pageHandlerOptions(options, { development, telemetry, csrf, policy, routeTable, reload, analytics, statusWords: pages.words });
  mountRoutes(app, routes, { pages, csrf, uploads, page });
  if (missing !== undefined) app.get(missing.path, createNotFoundPage(createPageHandler(missing, page).get));

  app.use(createNotFoundHandler(pages));
  // redirect() thrown by load, getLoadContext or a resource route; an action answers its own.
  app.use(createRedirectAnswer(publicOrigin));
  app.use(createErrorHandler({ pages, publicHost: publicOrigin?.hostname, development }));
  return app;
}

/** The overload guard of the options, with its own readings unless a test gives some. */
function overloadGuard(options: AppOptions, pages: StatusPages) {
  const { overload, logger, metrics } = options;
  if (overload === undefined) return undefined;
  const { readings, sampleIntervalMs, logIntervalMs, delayNeedsInFlight, ...limits } = overload;
  const passPrefixes = [ASSETS_PATH];
  return createOverloadGuard({ limits, pages, logger, refusals: metrics?.overloadRefusals, readings, sampleIntervalMs, logIntervalMs, delayNeedsInFlight, passPrefixes });
}

/** The page policy: the built styles' hashes, and the origins of the analytics and of the live reload. */
function pagePolicy(assets: ClientAssets | undefined, analytics: AnalyticsScripts, liveReloadUrl: URL | undefined, app: PolicySources | undefined): ContentSecurityPolicy {
  return createContentSecurityPolicy({
    app,
    styleHashes: [...(assets?.inlineStyles.values() ?? [])].map(styleHashSource),
    scriptSources: analytics.origins,
    connectSources: [...analytics.origins, ...(liveReloadUrl === undefined ? [] : [liveReloadUrl.origin])],
  });
}

/** The cross-site check's settings: only an app with actions checks posts and hands out form tokens (cookie and hidden field). */
function formChecks(routes: readonly RouteDefinition[], forms: AppOptions['forms'], publicOrigin: URL | undefined): CsrfOptions | undefined {
  if (!routes.some((route) => route.action !== undefined)) return undefined;
  if (forms === undefined) throw new Error('A route has an action: createApp needs forms: { secret } (CSRF_SECRET) to check its posts');
  return { secret: forms.secret, publicOrigin };
}

/** Serves the built files, and beside them the route table for navigation, made once here (route-table-module.ts); returns its URL. */
function mountBuiltFiles(app: Express, routes: readonly RouteDefinition[], assets: ClientAssets | undefined, missing: RouteDefinition | undefined): string | undefined {
  if (assets === undefined) return undefined;
  const notFound = missing === undefined ? [] : clientRoutes([missing], assets).map(notFoundClientRoute);
  const routeTable = routeTableModule([...clientRoutes(routes, assets), ...notFound]);
  app.use(createStaticAssets(assets.dir, ASSETS_PATH, [routeTable]));
  return routeTable.url;
}

/** What createApp resolved that the page handler needs too. */
interface ResolvedSettings {
  readonly development: boolean;
  readonly telemetry: boolean;
  readonly csrf: CsrfOptions | undefined;
  readonly policy: ContentSecurityPolicy;
  readonly routeTable: string | undefined;
  readonly reload: string | undefined;
  readonly analytics: AnalyticsScripts;
  /** The status pages' words, in the request's language, for what a page shows of a status. */
  readonly statusWords: StatusWords;
}

/** Every setting of the page handler, resolved once and grouped by concern: it takes each as given. */
function pageHandlerOptions(options: AppOptions, { development, telemetry, csrf, policy, routeTable, reload, analytics, statusWords }: ResolvedSettings): PageHandlerOptions {
  const { publicOrigin, metrics, assets } = options;
  const { site, getLoadContext } = options.app;
  // Resolved once, here: the group goes to the handlers as it is, each part read where it is used.
  const pages: PageSettings = { ...PAGE_DEFAULTS, ...options.pages };
  const { renderTimeoutMs, compression } = pages;
  return {
    pages,
    run: { renderTimeoutMs, getLoadContext, publicOrigin },
    data: { publicOrigin, development, statusWords, telemetry, formToken: csrf === undefined ? undefined : createFormTokenIssuer(csrf) },
    document: {
      compression,
      development,
      statusWords,
      liveReloadScript: reload,
      analyticsSources: analytics.sources,
      headers: createDocumentHeaders({ policy, compression }),
      onShellReady: metrics === undefined ? undefined : (route: string, seconds: number) => metrics.observeShell(route, seconds),
    },
    head: { site: { ...site, name: site?.name ?? APP_NAME }, publicOrigin },
    client: { assets, routeTable },
  };
}

/**
 * Each route's handlers: its page (or the Response of a resource route's load), its action
 * behind the body parser and the cross-site check, and 405 for every other method.
 */
function mountRoutes(
  app: Express,
  routes: readonly RouteDefinition[],
  {
    pages,
    csrf,
    uploads,
    page,
  }: { readonly pages: StatusPages; readonly csrf: CsrfOptions | undefined; readonly uploads: UploadLimits | undefined; readonly page: PageHandlerOptions },
): void {
  const { run } = page;
  const methodNotAllowed = createMethodNotAllowedHandler(pages);
  const actionMethodNotAllowed = createMethodNotAllowedHandler(pages, 'GET, HEAD, POST');
  const postOnly = createMethodNotAllowedHandler(pages, 'POST');
  // Multipart only when the app takes uploads; 415 otherwise.
  const parseFormBody = createFormBodyParser(ACTION_BODY_LIMIT_BYTES, uploads === undefined ? undefined : createMultipartBodyParser(uploads));
  const checkCsrf = csrf === undefined ? undefined : createCsrfCheck(csrf);
  const checkCsrfHeaders = csrf === undefined ? undefined : createCsrfHeaderCheck(csrf);
  for (const route of routes) {
    // A route without a component answers with the Response its load returns (docs/responses.md).
    const shown = isResourceRoute(route) ? createResourceHandler(route, { run, data: { publicOrigin: run.publicOrigin } }) : createPageHandler(route, page);
    // One Express route per path, its methods inside: a request is matched against each path
    // once, not once per method (a router layer each for GET, POST and the rest).
    // A resource route with an action alone (a webhook, a POST endpoint) answers GET with 405 too.
    const takesGet = !isResourceRoute(route) || route.load !== undefined;
    const methods = takesGet ? app.route(route.path).get(shown.get) : app.route(route.path);
    if (route.action !== undefined && checkCsrf !== undefined && checkCsrfHeaders !== undefined) {
      // The cross-site check's headers first (a refused post is not read), then the body (the
      // token may be in it), then the whole check, then the action.
      // The action, then the route shown after it, in one run: one timer, one signal, one app context.
      const runAction = createActionHandler(route, shown, run);
      methods.post(labelRoute(route.path), checkCsrfHeaders, parseFormBody, checkCsrf, runAction);
    }
    methods.all(labelRoute(route.path), !takesGet ? postOnly : route.action === undefined ? methodNotAllowed : actionMethodNotAllowed);
  }
}
