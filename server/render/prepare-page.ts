import type { Request, Response } from 'express';
import type { ResolvedHead } from '../../shared/head.ts';
import { isHttpError } from '../../shared/http-error.ts';
import type { EmbeddedPageData } from '../../shared/page-data.ts';
import type { LoadContext, PageRouteDefinition, RouteParams } from '../../shared/route-definition.ts';
import { statusDigest } from '../../shared/server-digests.ts';
import { logServerError } from '../observability/server-error-log.ts';
import type { FormToken } from '../security/csrf.ts';
import { untilAborted } from './abortable.ts';
import { deferData, DeferredDataError, type DeferredData } from './deferred-data.ts';
import { pageAnswer, unwrapData, type PageAnswer } from './page-answer.ts';
import type { HeadFor } from './page-head.ts';
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
  { settings, headFor, hydrates }: { readonly settings: PageDataSettings; readonly headFor: HeadFor; readonly hydrates: boolean },
): Promise<PreparedPage | undefined> {
  const params = normalizeParams(req.params);
  const action = res.locals.actionResult;
  const causes = new WeakMap<DeferredDataError, unknown>();
  let deferred: DeferredData<{ readonly data: unknown; readonly actionData: unknown }>;
  let answer: PageAnswer;
  try {
    const loaded = unwrapData(await runLoad(route.load, req, res, params, lifecycle, settings));
    answer = pageAnswer(req, res, route.path, loaded, action === undefined ? undefined : { value: action.data, status: action.status, headers: action.headers });
    if (!lifecycle.enter('rendering')) return undefined;
    // Checked here when the browser gets the data, so a value it cannot receive is the 500
    // page with one error line, on both answers, before anything is sent (sendable-values.ts).
    deferred = deferData(
      { data: loaded.value, actionData: action?.data },
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
  const { data, actionData } = deferred.value;
  // A copy a shared cache keeps is given to everyone: no visitor's token may be in it (docs/responses.md).
  const form = answer.shared ? undefined : settings.formToken?.(req);
  const pageData: EmbeddedPageData = {
    data,
    params,
    ...(action === undefined ? {} : { actionData }),
    ...(form === undefined ? {} : { formToken: form.token }),
    ...(settings.telemetry ? { telemetry: { route: route.path, requestId: String(req.id) } } : {}),
    ...(settings.development ? { development: true } : {}),
  };
  return {
    answer,
    head: headFor(req, data, params),
    params,
    data,
    action: action === undefined ? undefined : { data: actionData },
    pageData,
    deferred,
    form,
    causeOf: (rejection) => (rejection instanceof DeferredDataError ? causes.get(rejection) : undefined) ?? rejection,
  };
}

/** A deferred value's rejection: logged once here; the page gets only its digest. */
function deferredRejected(error: unknown, req: Request, lifecycle: PageLifecycle, development: boolean, causes: WeakMap<DeferredDataError, unknown>): DeferredDataError {
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
  causes.set(rejection, error);
  return rejection;
}
