import type { Request, Response } from 'express';
import { isDataWithResponseInit } from '../../shared/api/answers.ts';
import { mergedVary, privateCacheControl, strictestCacheControl } from '../http/cache-control.ts';
import { appHeaders, assertNoSharedCookie, isSharedCacheable, type AppHeaders } from '../security/app-headers.ts';
import { carriesSession } from '../sessions/session-cookies.ts';

/** What `load` or an action returned, out of `data()`: the page's value, and the status and headers asked for. */
export interface Unwrapped {
  readonly value: unknown;
  readonly status: number | undefined;
  readonly headers: HeadersInit | undefined;
}

/** `data(value, init)` gives its value, status and headers; anything else is the value itself. */
export function unwrapData(returned: unknown): Unwrapped {
  if (!isDataWithResponseInit(returned)) return { value: returned, status: undefined, headers: undefined };
  return { value: returned.data, status: returned.init?.status, headers: returned.init?.headers };
}

/** The status and headers of one page answer (the document, or its data for an in-place navigation). */
export interface PageAnswer extends AppHeaders {
  readonly status: number;
  /** A shared cache may keep it (`public`, `s-maxage`): it carries no form token and no cookie. */
  readonly shared: boolean;
}

/** The page's own status and headers, when neither `load` nor the action gave any: most pages. */
const PLAIN: Omit<PageAnswer, 'status'> = { headers: [], cookies: [], cacheControl: undefined, shared: false };

/**
 * The status and headers of a page (docs/responses.md). The status is the action's when it
 * gave one (`invalid()`'s 422, a `data()` status), else `load`'s, else 200. Headers: `load`'s,
 * then the action's, which replace `load`'s of the same name but add to its cookies. Throws
 * SharedCacheCookieError for a page a shared cache may keep that sets a cookie (its own, or
 * one the app's `getLoadContext` set on the response): the page ends in the 500 page.
 */
export function pageAnswer(req: Request, res: Response, route: string, load: Unwrapped, action: Unwrapped | undefined): PageAnswer {
  const status = action?.status ?? load.status ?? 200;
  if (load.headers === undefined && action?.headers === undefined) return { status, ...PLAIN };
  const own = forVisitor(req, appHeaders(req, route, mergeHeaders([load.headers, action?.headers]), 'page'));
  assertNoSharedCookie(route, own, res.hasHeader('Set-Cookie'));
  return { status, ...own, shared: isSharedCacheable(own.cacheControl) };
}

/**
 * Headers of several levels (a branch's layouts and page, outermost first; a page and its
 * action): each cookie kept, the strictest Cache-Control (cache-control.ts), every `Vary`
 * name, and of any other header the innermost level's.
 */
export function mergeHeaders(levels: readonly (HeadersInit | undefined)[]): Headers {
  const merged = new Headers();
  const cacheControls: string[] = [];
  const varies: string[] = [];
  for (const level of levels) {
    for (const [name, value] of new Headers(level)) {
      if (name === 'set-cookie') merged.append(name, value);
      else if (name === 'cache-control') cacheControls.push(value);
      else if (name === 'vary') varies.push(value);
      else merged.set(name, value);
    }
  }
  const cacheControl = strictestCacheControl(cacheControls);
  if (cacheControl !== undefined) merged.set('cache-control', cacheControl);
  const vary = mergedVary(varies);
  if (vary !== undefined) merged.set('vary', vary);
  return merged;
}

/**
 * A route's headers for the request at hand: an answer to a request that carries a session
 * cookie (session-cookies.ts) may hold that visitor's data, so a shared cache may not keep it
 * whatever the route asked for; it becomes private. Resource routes too (resource-route.ts).
 */
export function forVisitor(req: Request, own: AppHeaders): AppHeaders {
  if (!isSharedCacheable(own.cacheControl) || own.cacheControl === undefined || !carriesSession(req.headers.cookie)) return own;
  return { ...own, cacheControl: privateCacheControl(own.cacheControl) };
}
