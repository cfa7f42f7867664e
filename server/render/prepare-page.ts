import type { Request, Response } from 'express';
import type { ResolvedHead } from '../../shared/head.ts';
import { isHttpError } from '../../shared/http-error.ts';
import type { EmbeddedPageData, LayoutData } from '../../shared/page-data.ts';
import type { AppLoadContext, LoadContext, PageRouteDefinition, RouteParams } from '../../shared/route-definition.ts';
import { statusDigest } from '../../shared/server-digests.ts';
import { logServerError } from '../observability/server-error-log.ts';
import type { FormToken } from '../security/csrf.ts';
import { untilAborted } from './abortable.ts';
import { branchLevels, keptLayouts, routeFailure, type RouteFailure } from './branch-loads.ts';
import { deferData, DeferredDataError, type DeferredData } from './deferred-data.ts';
import { pageAnswer, unwrapData, type PageAnswer, type Unwrapped } from './page-answer.ts';
import type { PageHeads } from './page-head.ts';
import type { PageLifecycle } from './page-lifecycle.ts';
import { isRenderStopReason } from './render-errors.ts';
import { createLoadContext, NO_APP_CONTEXT, type GetLoadContext } from './request-context.ts';
import { normalizeParams } from './route-params.ts';

/** What a page's data needs beyond the request: the app's context, the public origin, the browser's extras. */
export interface PageDataSettings {
  /** The app's per-request value for `load`; `{}` without one. */
  readonly getLoadContext: GetLoadContext | undefined;
  /** The request's absolute URL is made on it (request-url.ts). */
  readonly publicOrigin: URL | undefined;
  /** Development: rejections and errors reach the browser with message and stack. */
  readonly development: boolean;
  /** Tells the page to report web vitals and client errors (docs/observability.md). */
  readonly telemetry: boolean;
  /** The request's form token when the app has actions, with the cookie to set when it had none (csrf.ts). */
  readonly formToken: ((req: Request) => FormToken) | undefined;
}

/** What one request to a route renders, on either answer (the document or navigation data). */
export interface PreparedPage {
  /** Its status and the headers `load` and the action gave (page-answer.ts). */
  readonly answer: PageAnswer;
  readonly head: ResolvedHead;
  readonly params: RouteParams;
  /** The data with each promise replaced by one the server controls (deferred-data.ts). */
  readonly data: unknown;
  /** Each layout's data, outermost first, the same way; `undefined` for one the browser keeps, or below a failure. */
  readonly layoutData: readonly unknown[];
  /** A load failed and a route's `ErrorBoundary` shows in its place (branch-loads.ts). */
  readonly failure: RouteFailure | undefined;
  /** What the action returned, when the page is shown again after a form post. */
  readonly action: { readonly data: unknown } | undefined;
  /** The data as the browser receives it. */
  readonly pageData: EmbeddedPageData;
  readonly deferred: DeferredData<unknown>;
  /** The form token; none on a page a shared cache may keep, which carries no secret of one visitor's. */
  readonly form: FormToken | undefined;
  /** What a deferred value's rejection stands for (its status helper, or its error), should it fail the shell. */
  causeOf(rejection: unknown): unknown;
}

/** Runs the app's `getLoadContext` and the route's `load`, each stopped by the lifecycle's signal. Also a resource route's (resource-route.ts). */
export async function runLoad(
  load: ((context: LoadContext) => unknown) | undefined,
  req: Request,
  res: Response,
  params: RouteParams,
  lifecycle: PageLifecycle,
  settings: Pick<PageDataSettings, 'getLoadContext' | 'publicOrigin'>,
): Promise<unknown> {
  if (load === undefined) return undefined;
  const signal = lifecycle.loadSignal;
  const context = settings.getLoadContext === undefined ? NO_APP_CONTEXT : await untilAborted(settings.getLoadContext(req, res), signal);
  return untilAborted(load(createLoadContext(req, { params, signal, context, publicOrigin: settings.publicOrigin })), signal);
}

/**
 * The loads of a page's branch, its layouts' and its own, all at once (docs/building-an-app.md#layouts),
 * each with its own `LoadContext` over the one app context `getLoadContext` made for the
 * request. A layout's `load` sees no path parameters: its data must hold for every page inside
 * it, which is what lets a navigation between them keep it. A kept layout is not loaded.
 */
async function runBranchLoads(
  route: PageRouteDefinition,
  kept: ReadonlySet<string>,
  req: Request,
  res: Response,
  params: RouteParams,
  lifecycle: PageLifecycle,
  settings: Pick<PageDataSettings, 'getLoadContext' | 'publicOrigin'>,
): Promise<PromiseSettledResult<unknown>[]> {
  const layouts = route.layouts ?? [];
  if (layouts.length === 0) return [await runLoad(route.load, req, res, params, lifecycle, settings).then(fulfilled, rejected)];
  const signal = lifecycle.loadSignal;
  let context: AppLoadContext = NO_APP_CONTEXT;
  if (settings.getLoadContext !== undefined) {
    try {
      context = await untilAborted(settings.getLoadContext(req, res), signal);
    } catch (error) {
      // Not a level's failure: no route's boundary stands for the app's context.
      throw new BranchContextError(error);
    }
  }
  const publicOrigin = settings.publicOrigin;
  const levels = branchLevels(route);
  return Promise.allSettled(
    levels.map((level, index) => {
      const isPage = index === levels.length - 1;
      const { load } = level;
      if (load === undefined || (!isPage && kept.has(route.layouts?.[index]?.id ?? ''))) return undefined;
      // A load that throws before its first await fails its own level, not the others.
      const loading = new Promise((resolve) => resolve(load(createLoadContext(req, { params: isPage ? params : NO_PARAMS, signal, context, publicOrigin }))));
      return untilAborted(loading, signal);
    }),
  );
}

const NO_PARAMS: RouteParams = Object.freeze({});
const fulfilled = (value: unknown): PromiseSettledResult<unknown> => ({ status: 'fulfilled', value });
const rejected = (reason: unknown): PromiseSettledResult<unknown> => ({ status: 'rejected', reason });

/** `getLoadContext` failed: carried past the levels' failures to Express, as itself. */
class BranchContextError {
  readonly cause: unknown;
  constructor(cause: unknown) {
    this.cause = cause;
  }
}

/** The status and headers the levels' `data()` gave: the page's status, every level's headers, the inner ones last. */
function mergeLevels(levels: readonly Unwrapped[]): Unwrapped {
  const page = levels.at(-1) ?? { value: undefined, status: undefined, headers: undefined };
  if (levels.length === 1 || levels.every((level) => level.headers === undefined)) return page;
  const headers = new Headers();
  for (const level of levels) {
    for (const [name, value] of new Headers(level.headers)) {
      if (name === 'set-cookie') headers.append(name, value);
      else headers.set(name, value);
    }
  }
  return { value: page.value, status: page.status, headers };
}

/**
 * `load`, then the data as the page gets it (docs/building-an-app.md): its promises deferred and
 * checked for the browser when the page hydrates, the action's result, the form token, the head,
 * the status and headers `data()` asked for (docs/responses.md). Throws what Express should
 * answer (a status helper, a `redirect()`, an error, the render timeout); resolves
 * `undefined` when the client has gone and nobody needs an answer.
 */
export async function preparePage(
  route: PageRouteDefinition,
  req: Request,
  res: Response,
  lifecycle: PageLifecycle,
  { settings, heads, hydrates }: { readonly settings: PageDataSettings; readonly heads: PageHeads; readonly hydrates: boolean },
): Promise<PreparedPage | undefined> {
  const params = normalizeParams(req.params);
  const action = res.locals.actionResult;
  const causes = new WeakMap<DeferredDataError, unknown>();
  const layouts = route.layouts ?? [];
  const kept = keptLayouts(req, layouts);
  let deferred: DeferredData<{ readonly data: unknown; readonly actionData: unknown; readonly layouts: readonly unknown[] }>;
  let answer: PageAnswer;
  let failure: RouteFailure | undefined;
  try {
    const results = await runBranchLoads(route, kept, req, res, params, lifecycle, settings).catch((error: unknown) => {
      throw error instanceof BranchContextError ? error.cause : error;
    });
    const failedAt = results.findIndex((result) => result.status === 'rejected');
    const failed = results[failedAt];
    if (failed?.status === 'rejected') {
      // The nearest boundary shows inside the layouts above it; without one, the status page.
      failure = routeFailure(req, route, failedAt, failed.reason, settings.development);
      if (failure === undefined) throw failed.reason;
    }
    const shown = failure === undefined ? results : results.slice(0, failure.at);
    const loaded = shown.map((result) => unwrapData(result.status === 'fulfilled' ? result.value : undefined));
    const merged = mergeLevels(failure === undefined ? loaded : [...loaded, { value: undefined, status: failure.status, headers: undefined }]);
    answer = pageAnswer(
      req,
      res,
      route.path,
      merged,
      action === undefined || failure !== undefined ? undefined : { value: action.data, status: action.status, headers: action.headers },
    );
    if (!lifecycle.enter('rendering')) return undefined;
    // Checked here when the browser gets the data, so a value it cannot receive is the 500
    // page with one error line, on both answers, before anything is sent (sendable-values.ts).
    const pageValue = failure === undefined ? merged.value : undefined;
    deferred = deferData(
      { data: pageValue, actionData: action?.data, layouts: layouts.map((_, index) => loaded[index]?.value) },
      {
        onRejected: (error) => deferredRejected(error, req, lifecycle, settings.development, causes),
        browser: hydrates ? { development: settings.development } : undefined,
        path: '',
      },
    );
  } catch (error) {
    // A client that went away needs no answer; otherwise Express gives the status page of a
    // helper, or the 500 page of a throw or of the render timeout.
    if (lifecycle.enter('done')) throw error;
    return undefined;
  }
  const { data, actionData, layouts: layoutData } = deferred.value;
  // A copy a shared cache keeps is given to everyone: no visitor's token may be in it (docs/responses.md).
  const form = answer.shared ? undefined : settings.formToken?.(req);
  const pageData: EmbeddedPageData = {
    data,
    params,
    ...(action === undefined ? {} : { actionData }),
    ...(form === undefined ? {} : { formToken: form.token }),
    ...(settings.telemetry ? { telemetry: { route: route.path, requestId: String(req.id) } } : {}),
    ...(settings.development ? { development: true } : {}),
    ...(layouts.length === 0
      ? {}
      : {
          route: route.path,
          layouts: layouts.map((layout, index): LayoutData => (kept.has(layout.id) ? { id: layout.id, kept: true } : { id: layout.id, data: layoutData[index] })),
        }),
    ...(failure === undefined ? {} : { failure: { at: failure.at, error: failure.error } }),
  };
  return {
    answer,
    head: failure === undefined ? heads.of(req, data, params) : heads.failed(failure.status),
    params,
    data,
    layoutData,
    failure,
    action: action === undefined ? undefined : { data: actionData },
    pageData,
    deferred,
    form,
    causeOf: (rejection) => (rejection instanceof DeferredDataError ? causes.get(rejection) : undefined) ?? rejection,
  };
}

/** A deferred value's rejection: logged once here; the page (or a fetcher, fetcher-answer.ts) gets only its digest. */
export function deferredRejected(error: unknown, req: Request, lifecycle: PageLifecycle, development: boolean, causes?: WeakMap<DeferredDataError, unknown>): DeferredDataError {
  let rejection: DeferredDataError;
  if (isHttpError(error) && error.status < 500) {
    // Nothing sent yet (a crawler waits for the whole document; a shell that reads the value
    // waits for it): the status line can still say it, as for a helper called while rendering.
    lifecycle.statusCalled(error, 'deferred value');
    rejection = new DeferredDataError(statusDigest(error.status));
  } else if (isRenderStopReason(error)) {
    // The client went away or the timeout stopped `load`: expected, and logged as such.
    return new DeferredDataError(lifecycle.timeoutDigest ?? '');
  } else {
    const digest = logServerError(req, error);
    rejection = new DeferredDataError(digest, development && error instanceof Error ? { message: error.message, stack: error.stack } : undefined);
  }
  causes?.set(rejection, error);
  return rejection;
}
