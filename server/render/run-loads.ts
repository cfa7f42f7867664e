import type { Request } from 'express';
import type { AppLoadContext, LayoutDefinition, LoadContext, PageRouteDefinition, RouteParams } from '../../shared/api/route-definition.ts';
import { keptLayouts, routeFailure, type RouteFailure } from './branch-loads.ts';
import { mergeHeaders, unwrapData, type Unwrapped } from './page-answer.ts';
import { guardLayouts, isPromiseLike, loadInOrder, observeRejections, type StartLoad } from './loads-in-order.ts';
import { createLoadContext } from './request-context.ts';
import type { StatusWords } from './status-words.ts';
import type { RouteRun } from './route-run.ts';

/** What loads need beyond the request's run: the public origin, which absolute URLs are made on. */
export interface LoadSettings {
  /** The request's absolute URL is made on it (request-url.ts). */
  readonly publicOrigin: URL | undefined;
}

/**
 * The route's layouts' loads as guards (loads-in-order.ts), then the route's `load`, over the
 * run's one app context, each stopped by the run's lifecycle: a resource route's (resource-route.ts).
 */
export async function runLoad(
  load: ((context: LoadContext) => unknown) | undefined,
  layouts: readonly LayoutDefinition[],
  req: Request,
  params: RouteParams,
  run: RouteRun,
  { publicOrigin }: LoadSettings,
): Promise<unknown> {
  if (load === undefined) return undefined;
  const { lifecycle, request } = run;
  const signal = () => lifecycle.loadSignal;
  return withAppContext(run, (context) => {
    const contextFor = (levelParams: RouteParams) => createLoadContext(req, { params: levelParams, signal, context, publicOrigin, request });
    if (!layouts.some((layout) => layout.load !== undefined)) return load(contextFor(params));
    return guardLayouts(
      layouts,
      () => contextFor(NO_PARAMS),
      () => lifecycle.throwIfStopped(),
    ).then(() => load(contextFor(params)));
  });
}

/**
 * `work` with the run's app context (what `getLoadContext` made for the request; `{}` without
 * one), stopped by the lifecycle: a timeout or a departed client stops them all. A failure of
 * the context is no route's: Express answers it.
 */
function withAppContext<T>(run: RouteRun, work: (context: AppLoadContext) => T | Promise<T>): Promise<T> {
  const { lifecycle } = run;
  const context = run.context();
  return lifecycle.untilStopped(isPromiseLike(context) ? Promise.resolve(context).then(work) : work(context));
}

/**
 * The loads of a page's branch, its layouts' and its own, one after the other from the outside in
 * (loads-in-order.ts), each with its own `LoadContext` over the one app context `getLoadContext`
 * made for the request: a layout that refuses (a status helper, a `redirect()`) stops every load
 * inside it. A layout's `load` sees no path parameters: its data must hold for every page inside
 * it, which is what lets a navigation between them keep it. A layout the browser keeps is loaded
 * all the same, since its load may be a guard; only its data is not sent (prepare-page.ts).
 */
function runBranchLoads(route: PageRouteDefinition, req: Request, params: RouteParams, run: RouteRun, { publicOrigin }: LoadSettings): Promise<PromiseSettledResult<unknown>[]> {
  const layouts = route.layouts ?? [];
  // A page with nothing to load asks the app for no context.
  // Stryker disable next-line ArrayDeclaration: equivalent, without layouts only the merged page is read, and mergeLevels makes of no level the page unwrapData makes of undefined
  if (layouts.length === 0 && route.load === undefined) return Promise.resolve([fulfilled(undefined)]);
  // Every level's signal is the lifecycle's, made if a load reads it; one view of the request
  // for every level (and the action before them): its headers are made once, for whichever asks first.
  const { lifecycle, request } = run;
  const signal = () => lifecycle.loadSignal;
  function startAll(context: AppLoadContext): PromiseSettledResult<unknown>[] | Promise<PromiseSettledResult<unknown>[]> {
    const start =
      (load: ((context: LoadContext) => unknown) | undefined, levelParams: RouteParams): StartLoad =>
      () =>
        load === undefined ? undefined : load(createLoadContext(req, { params: levelParams, signal, context, publicOrigin, request }));
    // Most pages have no layout: their one load, without gathering.
    // Stryker disable next-line ConditionalExpression: equivalent as false, gathering gives the same one result; this only skips the work
    if (layouts.length === 0) return loadAlone(start(route.load, params));
    const starts = layouts.map((layout) => start(layout.load, NO_PARAMS));
    starts.push(start(route.load, params));
    return loadInOrder(starts, () => lifecycle.throwIfStopped());
  }
  // Not a level's: a failure of the app's context, or a render stop, rejects for Express, never
  // for a boundary (routeFailure leaves a render stop to Express).
  return withAppContext(run, startAll);
}

/** A page's one load: a throw before its first await fails it as a rejection would. */
function loadAlone(start: StartLoad): Promise<PromiseSettledResult<unknown>[]> {
  try {
    return Promise.resolve(start()).then(settledAlone, rejectedAlone);
  } catch (error) {
    return Promise.resolve(rejectedAlone(error));
  }
}

const NO_PARAMS: RouteParams = Object.freeze({});

const fulfilled = (value: unknown): PromiseSettledResult<unknown> => ({ status: 'fulfilled', value });
const settledAlone = (value: unknown): PromiseSettledResult<unknown>[] => [fulfilled(value)];
const rejectedAlone = (reason: unknown): PromiseSettledResult<unknown>[] => [{ status: 'rejected', reason }];

/**
 * The status and headers the levels' `data()` gave: the page's status, every level's headers
 * (page-answer.ts: the inner ones last, every cookie and `Vary`, the strictest Cache-Control).
 */
function mergeLevels(levels: readonly Unwrapped[]): Unwrapped {
  const page = levels.at(-1) ?? { value: undefined, status: undefined, headers: undefined };
  // Stryker disable next-line ConditionalExpression,LogicalOperator,ArrowFunction: equivalent where they merge more often (one level's headers copied, or no level's: an empty Headers, which pageAnswer reads as none); this only skips the work. Those that merge less drop a layout's headers and fail branch-headers.test.tsx
  if (levels.length === 1 || levels.every((level) => level.headers === undefined)) return page;
  return { value: page.value, status: page.status, headers: mergeHeaders(levels.map((level) => level.headers)) };
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
  params: RouteParams,
  run: RouteRun,
  settings: LoadSettings & { readonly development: boolean; readonly statusWords: StatusWords },
): Promise<LoadedBranch> {
  const kept = keptLayouts(req, route.layouts ?? []);
  // A failure of getLoadContext, the render timeout or a departed client rejects here, for Express.
  const results = await runBranchLoads(route, req, params, run, settings);
  const failedAt = results.findIndex((result) => result.status === 'rejected');
  const failed = results[failedAt];
  let failure: RouteFailure | undefined;
  if (failed?.status === 'rejected') {
    // The nearest boundary shows inside the layouts above it; without one, the status page.
    failure = routeFailure(req, route, failedAt, failed.reason, settings.development, settings.statusWords);
    if (failure === undefined) throw failed.reason;
  }
  // Shown: every level, or those above the boundary that shows; the rest nobody sees.
  const shownCount = failure === undefined ? results.length : failure.at;
  const layouts = route.layouts ?? [];
  const levels = results.slice(0, shownCount).map((result, index): Unwrapped => {
    const level = unwrapData(result.status === 'fulfilled' ? result.value : undefined);
    const layout = layouts[index];
    if (layout === undefined || !kept.has(layout.id)) return level;
    // Loaded as a guard: its headers count, its data is not sent again.
    observeRejections(level.value);
    return { ...level, value: undefined };
  });
  for (const result of results.slice(shownCount)) if (result.status === 'fulfilled') observeRejections(result.value);
  const merged = mergeLevels(failure === undefined ? levels : [...levels, { value: undefined, status: failure.status, headers: undefined }]);
  return { kept, levels, merged, failure };
}
