import type { Request } from 'express';
import { isHttpError, keptServerStatus } from '../../shared/api/http-error.ts';
import type { StatusWords } from './status-words.ts';
import { NAVIGATION_KEEP_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { isRedirect } from '../../shared/api/answers.ts';
import type { RouteErrorPayload } from '../../shared/api/route-errors.tsx';
import type { LayoutDefinition, PageRouteDefinition } from '../../shared/api/route-definition.ts';
import { prefersJson } from '../http/prefers-json.ts';
import { logServerError } from '../observability/server-error-log.ts';
import { navigationScope } from './navigation-request.ts';
import { isRenderStopReason } from './render-errors.ts';

/** Where a branch's loads failed: the level whose `ErrorBoundary` shows, the status, and what `useRouteError()` gives. */
export interface RouteFailure {
  /** The level (0 the outermost layout, the last the page) whose boundary shows in its place. */
  readonly at: number;
  readonly status: number;
  readonly error: RouteErrorPayload;
}

/** The levels of a page's branch, outermost first: its layouts, then the page itself. */
export function branchLevels(route: PageRouteDefinition): readonly (LayoutDefinition | PageRouteDefinition)[] {
  return [...(route.layouts ?? []), route];
}

/**
 * The layouts whose data the browser already has and asks not to be sent again (an in-place
 * navigation between pages of the same layouts, client/router.tsx). Only for a data answer, never
 * a document, which renders every layout; and only on a GET: after a post every level is sent
 * again, so what the action changed shows everywhere. It saves bytes, never a check: a kept
 * layout's load runs all the same (run-loads.ts), so a guard in it holds.
 */
export function keptLayouts(req: Request, layouts: readonly LayoutDefinition[]): ReadonlySet<string> {
  // Most pages have no layout: nothing to keep, and no header to read.
  if (layouts.length === 0) return NONE;
  const header = req.method === 'POST' || navigationScope(req) === undefined ? undefined : req.get(NAVIGATION_KEEP_HEADER);
  if (header === undefined) return NONE;
  const named = new Set(header.split(','));
  return new Set(layouts.filter((layout) => named.has(layout.id)).map((layout) => layout.id));
}

const NONE: ReadonlySet<string> = new Set();

/**
 * What a failed load becomes when a route of the branch has an `ErrorBoundary` at or above the
 * level that failed (docs/building-an-app.md#error-boundaries): the nearest one shows, inside the
 * layouts above it, with the status and log line the status page would have had (a status helper
 * its 4xx and no error line; anything else 500 and one error line with the digest the boundary
 * shows). `undefined` leaves the failure to Express as before: no boundary, a `redirect()`, the
 * render timeout or a departed client; and a client that prefers JSON to the document, which
 * gets the status answer's JSON (an in-place navigation's data shows the boundary, as JSON).
 */
export function routeFailure(req: Request, route: PageRouteDefinition, failedAt: number, reason: unknown, development: boolean, words: StatusWords): RouteFailure | undefined {
  if (navigationScope(req) === undefined && prefersJson(req)) return undefined;
  const levels = branchLevels(route);
  const at = levels.findLastIndex((level, index) => index <= failedAt && level.ErrorBoundary !== undefined);
  return at === -1 ? undefined : routeFailureAt(req, at, reason, development, words);
}

/**
 * What `reason` becomes in the boundary at level `at`, logged as its status page would be, its
 * `statusText` in the request's language (`words`, the status page's); `undefined` for what only Express answers.
 */
export function routeFailureAt(req: Request, at: number, reason: unknown, development: boolean, words: StatusWords): RouteFailure | undefined {
  if (isRedirect(reason) || isRenderStopReason(reason)) return undefined;
  if (isHttpError(reason) && reason.status < 500) {
    return { at, status: reason.status, error: { status: reason.status, statusText: words(req, reason.status) } };
  }
  // serviceUnavailable()'s 503 keeps its status, and its line is its cause's, as the error handler logs it.
  const status = keptServerStatus(isHttpError(reason) ? reason.status : 500);
  const logged = status === 503 && isHttpError(reason) && reason.cause !== undefined ? reason.cause : reason;
  const digest = logServerError(req, logged);
  const detail = development && logged instanceof Error ? { message: logged.message, stack: logged.stack } : {};
  return { at, status, error: { status, statusText: words(req, status), digest, ...detail } };
}
