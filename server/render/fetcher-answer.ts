import type { Request, Response } from 'express';
import { NAVIGATION_FETCHER_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { logServerError } from '../observability/server-error-log.ts';
import { DeferredDataError, deferData } from './deferred-data.ts';
import { pageAnswer, type Unwrapped } from './page-answer.ts';
import { sendPageData } from './page-data-answer.ts';
import type { PageLifecycle } from './page-lifecycle.ts';
import { deferredRejected } from './prepare-page.ts';
import type { StatusWords } from './status-words.ts';
import type { ActionShown, RouteRun } from './route-run.ts';

/** A post made by a fetcher, whose page stays on the screen: it wants the action's result alone (the run's, after its action). */
export function fetcherPost(req: Request, run: RouteRun): ActionShown | undefined {
  return req.get(NAVIGATION_FETCHER_HEADER) === undefined ? undefined : run.action;
}

const NO_LOAD: Unwrapped = { value: undefined, status: undefined, headers: undefined };

export interface FetcherAnswer {
  readonly route: string;
  readonly action: ActionShown;
  readonly lifecycle: PageLifecycle;
  /** The scope the browser named for the data's scripts. */
  readonly scope: string;
  readonly development: boolean;
  /** A status's words in the request's language, for a deferred value's late status. */
  readonly statusWords: StatusWords;
  readonly compression: boolean;
}

/**
 * Answers a fetcher's post (shared/api/fetcher.tsx) with the action's result alone, as the data
 * lines of an in-place navigation (page-data-answer.ts) minus the page: `{ actionData }` is
 * the one value, seroval-written, its deferred values streamed and bounded as a page's are. No
 * load runs, the page's nor its layouts': the browser keeps the page on the screen and loads it
 * again itself after a post that held (docs/building-an-app.md#fetchers). The status and headers
 * are those the page would have had: `invalid()`'s 422, `data()`'s status and headers.
 */
export function sendFetcherAnswer(req: Request, res: Response, { route, action, lifecycle, scope, development, statusWords, compression }: FetcherAnswer): void {
  let answer: ReturnType<typeof pageAnswer>;
  let deferred: ReturnType<typeof deferData<{ readonly actionData: unknown }>>;
  try {
    answer = pageAnswer(req, res, route, NO_LOAD, { value: action.data, status: action.status, headers: action.headers });
    if (!lifecycle.enter('rendering')) return;
    // A value the browser cannot receive is the 500 page with one error line, as on a page.
    deferred = deferData(
      { actionData: action.data },
      { onRejected: (error) => deferredRejected(error, req, lifecycle, { development, statusWords }), browser: { development }, path: '' },
    );
  } catch (error) {
    if (lifecycle.enter('done')) throw error;
    return;
  }
  lifecycle.stopsDeferred((digest) => {
    if (!deferred.isPending()) return false;
    deferred.rejectPending(new DeferredDataError(digest));
    return true;
  });
  lifecycle.enter('streaming');
  for (const cookie of answer.cookies) res.append('Set-Cookie', cookie);
  sendPageData(req, res, { status: answer.status, own: answer, meta: undefined, value: deferred.value, compression, scope, onError: (error) => logServerError(req, error) });
}
