import type { Request, Response } from 'express';
import type { ResolvedHead } from '../../shared/api/head.ts';
import { isHttpError } from '../../shared/api/http-error.ts';
import type { EmbeddedPageData, LayoutData } from '../../shared/protocol/page-data.ts';
import type { PageRouteDefinition, RouteParams } from '../../shared/api/route-definition.ts';
import { statusDigest } from '../../shared/protocol/server-digests.ts';
import { logServerError } from '../observability/server-error-log.ts';
import type { FormToken } from '../security/csrf.ts';
import type { RouteFailure } from './branch-loads.ts';
import { deferData, DeferredDataError, type DeferredData } from './deferred-data.ts';
import { pageAnswer, type PageAnswer } from './page-answer.ts';
import type { PageHeads } from './page-head.ts';
import type { PageLifecycle } from './page-lifecycle.ts';
import type { RouteRun } from './route-run.ts';
import { isRenderStopReason } from './render-errors.ts';
import { normalizeParams } from './route-params.ts';
import type { StatusWords } from './status-words.ts';
import { loadBranch, type LoadedBranch, type LoadSettings } from './run-loads.ts';

/** What a page's data needs beyond the request: the app's context, the public origin, the browser's extras. */
export interface PageDataSettings extends LoadSettings {
  /** Development: rejections and errors reach the browser with message and stack. */
  readonly development: boolean;
  /** A status's words in the request's language (the status page's): a boundary's `statusText`, a late status's view. */
  readonly statusWords: StatusWords;
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
  run: RouteRun,
  { settings, heads, hydrates }: { readonly settings: PageDataSettings; readonly heads: PageHeads; readonly hydrates: boolean },
): Promise<PreparedPage | undefined> {
  const params = normalizeParams(req.params);
  const { lifecycle, action } = run;
  // What each deferred rejection stands for; made by the first rejection, which most pages never have.
  let causes: WeakMap<DeferredDataError, unknown> | undefined;
  const layouts = route.layouts ?? [];
  let branch: LoadedBranch;
  let deferred: DeferredData<BranchValues>;
  let answer: PageAnswer;
  try {
    branch = await loadBranch(route, req, params, run, settings);
    const { levels, merged, failure } = branch;
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
    deferred = deferData(
      { data: failure === undefined ? merged.value : undefined, actionData: action?.data, layouts: layouts.map((_, index) => levels[index]?.value) },
      {
        onRejected: (error) => {
          causes ??= new WeakMap();
          return deferredRejected(error, req, lifecycle, settings, causes);
        },
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
  const { failure } = branch;
  // A copy a shared cache keeps is given to everyone: no visitor's token may be in it (docs/responses.md).
  const form = answer.shared ? undefined : settings.formToken?.(req);
  const pageData = embeddedData(route, req, branch, deferred.value, { params, action, form, settings });
  return {
    answer,
    head: failure === undefined ? heads.of(req, data, params) : heads.failed(failure),
    params,
    data,
    layoutData,
    failure,
    action: action === undefined ? undefined : { data: actionData },
    pageData,
    deferred,
    form,
    causeOf: (rejection) => (rejection instanceof DeferredDataError ? causes?.get(rejection) : undefined) ?? rejection,
  };
}

/** The values of a branch as the browser gets them: the page's data, the action's result, each layout's data. */
interface BranchValues {
  readonly data: unknown;
  readonly actionData: unknown;
  readonly layouts: readonly unknown[];
}

/** The page's data as the browser receives it (shared/protocol/page-data.ts): the layouts' own, or `kept` for those it has already. */
function embeddedData(
  route: PageRouteDefinition,
  req: Request,
  { kept, failure }: LoadedBranch,
  { data, actionData, layouts: layoutData }: BranchValues,
  { params, action, form, settings }: { readonly params: RouteParams; readonly action: unknown; readonly form: FormToken | undefined; readonly settings: PageDataSettings },
): EmbeddedPageData {
  const layouts = route.layouts ?? [];
  return {
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
}

/** A deferred value's rejection: logged once here; the page (or a fetcher, fetcher-answer.ts) gets only its digest. */
export function deferredRejected(
  error: unknown,
  req: Request,
  lifecycle: PageLifecycle,
  { development, statusWords }: { readonly development: boolean; readonly statusWords: StatusWords },
  causes?: WeakMap<DeferredDataError, unknown>,
): DeferredDataError {
  let rejection: DeferredDataError;
  if (isHttpError(error) && error.status < 500) {
    // Nothing sent yet (a crawler waits for the whole document; a shell that reads the value
    // waits for it): the status line can still say it, as for a helper called while rendering.
    lifecycle.statusCalled(error, 'deferred value');
    rejection = new DeferredDataError(statusDigest(error.status, statusWords(req, error.status)));
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
