import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isInvalidSubmission } from '../../shared/api/action-helpers.ts';
import { isRedirect } from '../../shared/api/answers.ts';
import { FORM_TOKEN_FIELD } from '../../shared/protocol/form-token-field.ts';
import type { RouteDefinition } from '../../shared/api/route-definition.ts';
import { createLoadContext } from '../render/request-context.ts';
import { requestUrl } from '../render/request-url.ts';
import { normalizeParams } from '../render/route-params.ts';
import { unwrapData } from '../render/page-answer.ts';
import { guardLayouts } from '../render/loads-in-order.ts';
import { afterAction, startRouteRun, type ActionShown, type RouteHandler, type RouteRunSettings } from '../render/route-run.ts';
import { sendRedirect } from './redirect-answer.ts';

export type ActionHandlerOptions = RouteRunSettings;

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
function shownWith(result: unknown): ActionShown {
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
 * The route is then shown by its own handler (`afterAction`), in the same run (route-run.ts):
 * one timer from the action's start to the answer's end, one signal, one app context, which
 * the loads after the action see as the action left it.
 */
export function createActionHandler(route: RouteDefinition, shown: RouteHandler, settings: ActionHandlerOptions): RequestHandler {
  const { action } = route;
  if (action === undefined) throw new Error(`Route ${route.path} has no action`);
  const { publicOrigin } = settings;

  return async function runAction(req: Request, res: Response, next: NextFunction) {
    res.locals.routePattern = route.path;
    // The URL a redirect resolves against, made before the action runs: a request whose Host
    // makes no origin (HTTP/1.0 may send none) gets its 400 before anything has changed, not after.
    requestUrl(req, publicOrigin);
    const run = startRouteRun(req, res, route.path, settings);
    const { lifecycle, request } = run;
    const signal = () => lifecycle.loadSignal;
    let result: unknown;
    try {
      result = await lifecycle.during('action', async () => {
        const context = await run.context();
        // The route's layouts first: a layout whose load refuses the visitor refuses the post too,
        // before the action has done anything (docs/security.md#guards).
        await guardLayouts(
          route.layouts ?? [],
          () => createLoadContext(req, { params: NO_PARAMS, signal, context, publicOrigin, request }),
          () => lifecycle.throwIfStopped(),
        );
        const loadContext = createLoadContext(req, { params: normalizeParams(req.params), signal, context, publicOrigin, request });
        // Assigned rather than spread, so `cookies` stays parsed on first read only.
        return action(Object.assign(loadContext, { body: formFields(req.body) }));
      });
    } catch (error) {
      // The client left (the lifecycle said so, once): nobody is left to answer.
      if (!lifecycle.enter('done')) return;
      if (isRedirect(error)) {
        sendRedirect(req, res, error, 303, publicOrigin);
        return;
      }
      // A status helper, a throw, or the timeout: Express answers, the 500 page's error line this event's only one.
      throw error;
    }
    await shown.afterAction(req, res, next, afterAction(run, shownWith(result)));
  };
}
