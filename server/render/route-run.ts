import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppLoadContext, PageRequest } from '../../shared/api/route-definition.ts';
import { callGetLoadContext } from './app-context.ts';
import { isPromiseLike } from './loads-in-order.ts';
import { PageLifecycle } from './page-lifecycle.ts';
import { createPageRequest, type GetLoadContext } from './request-context.ts';

/** What the action returned, shaped for the route shown after it: its data, and the status and headers it asked for. */
export interface ActionShown {
  readonly status: number | undefined;
  readonly data: unknown;
  readonly headers: HeadersInit | undefined;
}

/**
 * One request to a route, from its handler's first line to its answer (docs/rendering.md#one-request-one-lifecycle):
 * the one lifecycle that bounds it (one timer, one signal, the client's departure), the one view
 * of the request every stage reads, the one app context `getLoadContext` makes for it, and, when
 * the route is shown after a post, what its action returned. A post's action and the loads after
 * it run inside the same run: the timeout counts them together, and a change the action makes to
 * the context is what the loads see.
 */
export interface RouteRun {
  readonly lifecycle: PageLifecycle;
  readonly request: PageRequest;
  /**
   * The app's context for this request, made on the first call (a page with nothing to load
   * never asks) and the same object on every later one; raced with the lifecycle, so a timeout
   * or a departed client stops the wait, and its headers go on the answer once it is made.
   */
  context(): Promise<AppLoadContext> | AppLoadContext;
  /** What the action returned, when the route is shown after a post; `undefined` otherwise. */
  readonly action: ActionShown | undefined;
}

export interface RouteRunSettings {
  readonly renderTimeoutMs: number;
  readonly getLoadContext: GetLoadContext | undefined;
  /** The request's absolute URL is made on it (request-url.ts). */
  readonly publicOrigin: URL | undefined;
}

/** Starts the run of one request to `route`: its lifecycle's timer starts now. */
export function startRouteRun(req: Request, res: Response, route: string, { renderTimeoutMs, getLoadContext, publicOrigin }: RouteRunSettings): RouteRun {
  const lifecycle = new PageLifecycle(req, res, route, renderTimeoutMs);
  const request = createPageRequest(req, publicOrigin);
  let made: Promise<AppLoadContext> | AppLoadContext | undefined;
  return {
    lifecycle,
    request,
    action: undefined,
    context() {
      made ??= appContext(req, res, lifecycle, getLoadContext, request);
      return made;
    },
  };
}

/** The same run, its route shown after the action that returned `action`. */
export function afterAction(run: RouteRun, action: ActionShown): RouteRun {
  return { lifecycle: run.lifecycle, request: run.request, context: run.context, action };
}

/**
 * Calls the app's `getLoadContext` once, within the lifecycle: a context that comes after a
 * timeout or a departed client starts nothing and sets no header. Without one, `{}` at once.
 */
function appContext(
  req: Request,
  res: Response,
  lifecycle: PageLifecycle,
  getLoadContext: GetLoadContext | undefined,
  request: PageRequest,
): Promise<AppLoadContext> | AppLoadContext {
  const { context, sendHeaders } = callGetLoadContext(getLoadContext, req, { request, signal: () => lifecycle.loadSignal });
  const settled = (value: AppLoadContext): AppLoadContext => {
    lifecycle.throwIfStopped();
    sendHeaders(res);
    return value;
  };
  if (!isPromiseLike(context)) return settled(context);
  return lifecycle.untilStopped(Promise.resolve(context).then(settled));
}

/**
 * What a route answers with: `get`, for GET and HEAD, starts the request's run; `afterAction`
 * answers a post within the run its action had (actions/action-handler.ts), so the post has one
 * timer, one signal and one app context from its action to its answer.
 */
export interface RouteHandler {
  readonly get: RequestHandler;
  afterAction(req: Request, res: Response, next: NextFunction, run: RouteRun): Promise<void>;
}
