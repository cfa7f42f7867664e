import type { Request, Response } from 'express';
import { isDataWithResponseInit } from '../../shared/responses.ts';
import { appHeaders, assertNoSharedCookie, isSharedCacheable, type AppHeaders } from '../security/app-headers.ts';

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
  const merged = new Headers(load.headers);
  for (const [name, value] of new Headers(action?.headers)) {
    if (name === 'set-cookie') merged.append(name, value);
    else merged.set(name, value);
  }
  const own = appHeaders(req, route, merged, 'page');
  assertNoSharedCookie(route, own, res.hasHeader('Set-Cookie'));
  return { status, ...own, shared: isSharedCacheable(own.cacheControl) };
}
