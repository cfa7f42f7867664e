import type { Request, Response } from 'express';
import type { AppLoadContext, LoadContext, PageRouteDefinition, RouteParams } from '../../shared/route-definition.ts';
import { keptLayouts, routeFailure, type RouteFailure } from './branch-loads.ts';
import { unwrapData, type Unwrapped } from './page-answer.ts';
import type { PageLifecycle } from './page-lifecycle.ts';
import { createLoadContext, createPageRequest, NO_APP_CONTEXT, type GetLoadContext } from './request-context.ts';

/** What loads need beyond the request: the app's context and the public origin. */
export interface LoadSettings {
  /** The app's per-request value for `load`; `{}` without one. */
  readonly getLoadContext: GetLoadContext | undefined;
  /** The request's absolute URL is made on it (request-url.ts). */
  readonly publicOrigin: URL | undefined;
}

/** Runs the app's `getLoadContext` and the route's `load`, each stopped by the lifecycle's signal. Also a resource route's (resource-route.ts). */
export async function runLoad(
  load: ((context: LoadContext) => unknown) | undefined,
  req: Request,
  res: Response,
  params: RouteParams,
  lifecycle: PageLifecycle,
  settings: LoadSettings,
): Promise<unknown> {
  if (load === undefined) return undefined;
  const signal = () => lifecycle.loadSignal;
  return withAppContext(req, res, lifecycle, settings, (context) => load(createLoadContext(req, { params, signal, context, publicOrigin: settings.publicOrigin })));
}

/**
 * `work` with the app's context (what `getLoadContext` makes for the request; `{}` without
 * one), the context and the work stopped by the lifecycle in one race: a timeout or a
 * departed client stops them all, and a context that comes after that starts nothing.
 * A failure of the context is no route's: Express answers it.
 */
function withAppContext<T>(req: Request, res: Response, lifecycle: PageLifecycle, { getLoadContext }: LoadSettings, work: (context: AppLoadContext) => T | Promise<T>): Promise<T> {
  const context = getLoadContext === undefined ? NO_APP_CONTEXT : getLoadContext(req, res);
  const afterContext = (made: AppLoadContext): T | Promise<T> => {
    lifecycle.throwIfStopped();
    return work(made);
  };
  return lifecycle.untilStopped(isPromiseLike(context) ? Promise.resolve(context).then(afterContext) : afterContext(context));
}

/**
 * The loads of a page's branch, its layouts' and its own, all at once (docs/building-an-app.md#layouts),
 * each with its own `LoadContext` over the one app context `getLoadContext` made for the
 * request. A layout's `load` sees no path parameters: its data must hold for every page inside
 * it, which is what lets a navigation between them keep it. A kept layout is not loaded.
 */
function runBranchLoads(
  route: PageRouteDefinition,
  kept: ReadonlySet<string>,
  req: Request,
  res: Response,
  params: RouteParams,
  lifecycle: PageLifecycle,
  settings: LoadSettings,
): Promise<PromiseSettledResult<unknown>[]> {
  const layouts = route.layouts ?? [];
  // A page with nothing to load asks the app for no context.
  // Stryker disable next-line ArrayDeclaration: equivalent, without layouts only the merged page is read, and mergeLevels makes of no level the page unwrapData makes of undefined
  if (layouts.length === 0 && route.load === undefined) return Promise.resolve([fulfilled(undefined)]);
  // Every level's signal is the lifecycle's, made if a load reads it.
  const signal = () => lifecycle.loadSignal;
  const { publicOrigin } = settings;
  // One view of the request for every level: its headers are made once, for whichever asks first.
  const request = createPageRequest(req, publicOrigin);
  function startAll(context: AppLoadContext): Promise<PromiseSettledResult<unknown>[]> {
    // A load that throws before its first await fails its own level, not the others; a value
    // returned at once (most layouts' are) is taken as it is, with no promise made around it.
    const start = (load: ((context: LoadContext) => unknown) | undefined, levelParams: RouteParams): unknown => {
      if (load === undefined) return undefined;
      try {
        return load(createLoadContext(req, { params: levelParams, signal, context, publicOrigin, request }));
      } catch (error) {
        return Promise.reject(error);
      }
    };
    // Most pages have no layout: their one load, without gathering.
    // Stryker disable next-line ConditionalExpression: equivalent as false, gathering gives the same one result; this only skips the work. As true, layouts never load, which the layouts tests see
    if (layouts.length === 0) return Promise.resolve(start(route.load, params)).then(settledAlone, rejectedAlone);
    const loads = layouts.map((layout) => (kept.has(layout.id) ? undefined : start(layout.load, NO_PARAMS)));
    loads.push(start(route.load, params));
    return Promise.allSettled(loads);
  }
  // Not a level's: a failure of the app's context, or a render stop, rejects for Express, never
  // for a boundary (routeFailure leaves a render stop to Express).
  return withAppContext(req, res, lifecycle, settings, startAll);
}

const NO_PARAMS: RouteParams = Object.freeze({});

/** Whether `getLoadContext` gave a promise (an async one does) rather than the context itself. */
function isPromiseLike(value: unknown): value is PromiseLike<AppLoadContext> {
  return typeof (value as Partial<PromiseLike<unknown>> | null)?.then === 'function';
}

const fulfilled = (value: unknown): PromiseSettledResult<unknown> => ({ status: 'fulfilled', value });
const settledAlone = (value: unknown): PromiseSettledResult<unknown>[] => [fulfilled(value)];
const rejectedAlone = (reason: unknown): PromiseSettledResult<unknown>[] => [{ status: 'rejected', reason }];

/** The status and headers the levels' `data()` gave: the page's status, every level's headers, the inner ones last. */
function mergeLevels(levels: readonly Unwrapped[]): Unwrapped {
  const page = levels.at(-1) ?? { value: undefined, status: undefined, headers: undefined };
  // Stryker disable next-line ConditionalExpression,LogicalOperator,ArrowFunction: equivalent where they merge more often (one level's headers copied, or no level's: an empty Headers, which pageAnswer reads as none); this only skips the work. Those that merge less drop a layout's headers and fail branch-headers.test.tsx
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

/** What a page's branch loaded (loadBranch). */
export interface LoadedBranch {
  /** The layouts whose data the browser keeps: neither loaded nor sent. */
  readonly kept: ReadonlySet<string>;
  /** Each level shown, outermost first, out of `data()`: every level, or those above a failure. */
  readonly levels: readonly Unwrapped[];
  /** The page's value and status (a failure's, when a boundary shows), and every shown level's headers. */
  readonly merged: Unwrapped;
  /** A load failed and a route's `ErrorBoundary` shows in its place (branch-loads.ts). */
  readonly failure: RouteFailure | undefined;
}

/**
 * Loads a page's branch and settles what it shows: all levels, or, when a load failed and a
 * boundary stands for it, the levels above that boundary. Throws what Express should answer
 * instead (a failure no boundary shows, `getLoadContext`'s failure, a redirect, the timeout).
 */
export async function loadBranch(
  route: PageRouteDefinition,
  req: Request,
  res: Response,
  params: RouteParams,
  lifecycle: PageLifecycle,
  settings: LoadSettings & { readonly development: boolean },
): Promise<LoadedBranch> {
  const kept = keptLayouts(req, route.layouts ?? []);
  // A failure of getLoadContext, the render timeout or a departed client rejects here, for Express.
  const results = await runBranchLoads(route, kept, req, res, params, lifecycle, settings);
  const failedAt = results.findIndex((result) => result.status === 'rejected');
  const failed = results[failedAt];
  let failure: RouteFailure | undefined;
  if (failed?.status === 'rejected') {
    // The nearest boundary shows inside the layouts above it; without one, the status page.
    failure = routeFailure(req, route, failedAt, failed.reason, settings.development);
    if (failure === undefined) throw failed.reason;
  }
  const shown = failure === undefined ? results : results.slice(0, failure.at);
  const levels = shown.map((result) => unwrapData(result.status === 'fulfilled' ? result.value : undefined));
  const merged = mergeLevels(failure === undefined ? levels : [...levels, { value: undefined, status: failure.status, headers: undefined }]);
  return { kept, levels, merged, failure };
}
