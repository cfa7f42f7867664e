import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isActionRedirect, isInvalidSubmission } from '../../shared/action-helpers.ts';
import { FORM_TOKEN_FIELD, NAVIGATION_HEADER, NAVIGATION_REDIRECT_HEADER } from '../../shared/navigation.ts';
import type { RouteDefinition } from '../../shared/route-definition.ts';
import { untilAborted } from '../render/abortable.ts';
import { ClientDisconnectedError, RenderTimeoutError } from '../render/render-errors.ts';
import { createLoadContext, type GetLoadContext } from '../render/request-context.ts';
import { normalizeParams } from '../render/route-params.ts';
import { sameOriginLocation } from './redirect-location.ts';

export interface ActionHandlerOptions {
  /** Where the request's absolute URL, and so a redirect's allowed origin, come from. */
  readonly publicOrigin: URL | undefined;
  /** The app's per-request value, as `load` gets it. */
  readonly getLoadContext: GetLoadContext | undefined;
  /** `getLoadContext` and the action together get this long, as a page's render does (`RENDER_TIMEOUT_MS`). */
  readonly renderTimeoutMs: number;
}

/** The posted fields as the action sees them: without the form token, read-only. */
function formFields(body: unknown): Readonly<Record<string, unknown>> {
  const entries = typeof body === 'object' && body !== null ? Object.entries(body) : [];
  return Object.freeze(Object.fromEntries(entries.filter(([name]) => name !== FORM_TOKEN_FIELD)));
}

/**
 * Runs a route's action for a POST whose body was parsed and whose cross-site check passed
 * (server/app.ts), then answers (docs/building-pages.md, "Forms and actions"):
 * - `redirect(location)`: 303 See Other to that path of this site; an in-place submission
 *   gets 204 with the path in `X-Navigation-Redirect` and navigates there itself;
 * - `invalid(errors, values)`: the page again, 422, `actionData = { errors, values }`;
 * - any other value: the page again, 200, `actionData` = the value;
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
    const client = new AbortController();
    res.once('close', function actionClientGone() {
      if (!res.writableFinished) client.abort(new ClientDisconnectedError());
    });
    const { signal } = client;
    const timer = setTimeout(function actionTimedOut() {
      client.abort(new RenderTimeoutError(renderTimeoutMs, 'action'));
    }, renderTimeoutMs);
    let result: unknown;
    try {
      const context = getLoadContext === undefined ? {} : await untilAborted(getLoadContext(req, res), signal);
      const loadContext = createLoadContext(req, { params: normalizeParams(req.params), signal, context, publicOrigin });
      // Assigned rather than spread, so `cookies` stays parsed on first read only.
      result = await untilAborted(action(Object.assign(loadContext, { body: formFields(req.body) })), signal);
    } catch (error) {
      if (isActionRedirect(error)) {
        const location = sameOriginLocation(req, error.location, publicOrigin);
        // An in-place submission is told where to go and goes there itself: fetch would follow
        // a 303 under the page's CSP, whose upgrade-insecure-requests can turn it to https.
        const inPlace = req.get(NAVIGATION_HEADER) === 'data';
        res.status(inPlace ? 204 : 303);
        res.setHeader(inPlace ? NAVIGATION_REDIRECT_HEADER : 'Location', location);
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('Content-Length', 0);
        res.end();
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
    res.locals.actionResult = isInvalidSubmission(result) ? { status: 422, data: { errors: result.errors, values: result.values } } : { status: 200, data: result };
    await showPage(req, res, next);
  };
}
