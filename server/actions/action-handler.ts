import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isInvalidSubmission } from '../../shared/action-helpers.ts';
import { isRedirect } from '../../shared/responses.ts';
import { FORM_TOKEN_FIELD } from '../../shared/navigation.ts';
import type { RouteDefinition } from '../../shared/route-definition.ts';
import { untilAborted } from '../render/abortable.ts';
import { ClientDisconnectedError, RenderTimeoutError } from '../render/render-errors.ts';
import { callGetLoadContext, keepAppContext } from '../render/app-context.ts';
import { createLoadContext, createPageRequest, type GetLoadContext } from '../render/request-context.ts';
import { requestUrl } from '../render/request-url.ts';
import { normalizeParams } from '../render/route-params.ts';
import { unwrapData } from '../render/page-answer.ts';
import { guardLayouts } from '../render/loads-in-order.ts';
import { sendRedirect } from './redirect-answer.ts';

export interface ActionHandlerOptions {
  /** Where the request's absolute URL, and so a redirect's allowed origin, come from. */
  readonly publicOrigin: URL | undefined;
  /** The app's per-request value, as `load` gets it. */
  readonly getLoadContext: GetLoadContext | undefined;
  /** `getLoadContext` and the action together get this long, as a page's render does (`RENDER_TIMEOUT_MS`). */
  readonly renderTimeoutMs: number;
}

/** A layout's load sees no path parameters, on a post as on a page (run-loads.ts). */
const NO_PARAMS = Object.freeze({});

/** The posted fields as the action sees them: without the form token, read-only. */
function formFields(body: unknown): Readonly<Record<string, unknown>> {
  const entries = typeof body === 'object' && body !== null ? Object.entries(body) : [];
  return Object.freeze(Object.fromEntries(entries.filter(([name]) => name !== FORM_TOKEN_FIELD)));
}

/**
 * What the route is shown again with: `invalid()`'s 422 and `{ errors, values }`; `data()`'s
 * value, status and headers; any other value as it is, with `load`'s status or 200. A resource
 * route's handler takes the value as the `Response` to send (resource-route.ts).
 */
function shownWith(result: unknown): NonNullable<Response['locals']['actionResult']> {
  if (isInvalidSubmission(result)) return { status: 422, data: { errors: result.errors, values: result.values }, headers: undefined };
  const { value, status, headers } = unwrapData(result);
  return { status, data: value, headers };
}

/**
 * Runs a route's action for a POST whose body was parsed and whose cross-site check passed
 * (server/app.ts), once its layouts' loads have run and none refused (loads-in-order.ts: a
 * refusal answers as the action's own status helper or `redirect()` would), then answers (docs/building-an-app.md, "Forms and actions"):
 * - `redirect(location, init)`: 303 See Other (or `init`'s status) to that path of this site,
 *   with `init`'s headers; an in-place submission gets 204 with the path in
 *   `X-Navigation-Redirect` and navigates there itself (redirect-answer.ts);
 * - `invalid(errors, values)`: the page again, 422, `actionData = { errors, values }`;
 * - `data(value, init)`: the page again with `init`'s status and headers, `actionData` = value;
 * - any other value: the page again, 200, `actionData` = the value;
 * - on a resource route, a `Response`: sent as it is (resource-route.ts);
 * - a status helper or a throw: its status page, or the 500 page with a digest, as for `load`;
 * - not settled within the render timeout: its signal aborts, and the 500 page with a digest
 *   answers, its error line naming the route, as for a `load` that outlives the timeout.
 * The page is shown by the same handler as GET (`showPage`), which reads
 * `res.locals.actionResult` and answers in-place navigations with data too.
 */
export function createActionHandler(route: RouteDefinition, showPage: RequestHandler, { publicOrigin, getLoadContext, renderTimeoutMs }: ActionHandlerOptions): RequestHandler {
  const { action } = route;
  if (action === undefined) throw new Error(`Route ${route.path} has no action`);

  return async function runAction(req: Request, res: Response, next: NextFunction) {
    res.locals.routePattern = route.path;
    // The URL a redirect resolves against, made before the action runs: a request whose Host
    // makes no origin (HTTP/1.0 may send none) gets its 400 before anything has changed, not after.
    requestUrl(req, publicOrigin);
    const client = new AbortController();
    res.on('close', function actionClientGone() {
      if (!res.writableFinished) client.abort(new ClientDisconnectedError());
    });
    const { signal } = client;
    const timer = setTimeout(function actionTimedOut() {
      client.abort(new RenderTimeoutError(renderTimeoutMs, 'action'));
    }, renderTimeoutMs);
    let result: unknown;
    try {
      // One view of the request for the app's context, the layouts and the action.
      const request = createPageRequest(req, publicOrigin);
      const made = callGetLoadContext(getLoadContext, req, res, { request, signal: () => signal });
      const context = await untilAborted(made.context, signal);
      made.sendHeaders(res);
      // The page shown after the action gets the same context, and its headers are not set again.
      keepAppContext(res, context);
      // The route's layouts first: a layout whose load refuses the visitor refuses the post too,
      // before the action has done anything (docs/security.md#guards).
      const throwIfStopped = () => signal.throwIfAborted();
      await untilAborted(
        guardLayouts(route.layouts ?? [], () => createLoadContext(req, { params: NO_PARAMS, signal: () => signal, context, publicOrigin, request }), throwIfStopped),
        signal,
      );
      const loadContext = createLoadContext(req, { params: normalizeParams(req.params), signal: () => signal, context, publicOrigin, request });
      // Assigned rather than spread, so `cookies` stays parsed on first read only.
      result = await untilAborted(action(Object.assign(loadContext, { body: formFields(req.body) })), signal);
    } catch (error) {
      if (isRedirect(error)) {
        sendRedirect(req, res, error, 303, publicOrigin);
        return;
      }
      // Past the timeout: Express answers the 500 page, whose error line is this event's only one.
      if (error instanceof RenderTimeoutError) throw error;
      if (signal.aborted) {
        // Nobody is left to answer: an abort, not an error of the app.
        req.log.info({ route: route.path }, 'action aborted: client disconnected');
        return;
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
    res.locals.actionResult = shownWith(result);
    await showPage(req, res, next);
  };
}
