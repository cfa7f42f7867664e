import { checkedHeaders } from './header-values.ts';

/**
 * What a route's `load` and `action` may answer beyond plain data (docs/responses.md), in React
 * Router's shapes: `data(value, init)` gives the page its data with a status and headers, and
 * `redirect(url, init)` sends the browser elsewhere. Server-only in practice: page modules
 * import them beside `load` and `action`, which never ship to the browser.
 */

/** What `data()` and `redirect()` take as their second argument: a status, or Fetch's `ResponseInit`. */
export type AnswerInit = number | ResponseInit;

/**
 * Statuses a page can be answered with: it has a body, and it is no redirect (that is
 * `redirect()`'s). 204 and 205 carry no body; 1xx and 3xx are no page.
 */
function isPageStatus(status: number): boolean {
  return Number.isInteger(status) && ((status >= 200 && status <= 299 && status !== 204 && status !== 205) || (status >= 400 && status <= 599));
}

/** The marker `data()` returns: the page gets `data`; the answer carries `init`'s status and headers. */
export class DataWithResponseInit<Data> {
  readonly type = 'DataWithResponseInit';
  readonly data: Data;
  readonly init: ResponseInit | null;

  constructor(data: Data, init: ResponseInit | null) {
    this.data = data;
    this.init = init;
  }
}

export function isDataWithResponseInit(value: unknown): value is DataWithResponseInit<unknown> {
  return value instanceof DataWithResponseInit;
}

function initOf(init: AnswerInit | undefined): ResponseInit | null {
  if (init === undefined) return null;
  return typeof init === 'number' ? { status: init } : init;
}

/**
 * Returned by `load` or an action: the page gets `value` as its data (or `actionData`), and the
 * answer carries `init.status` (2xx but 204 and 205, or 4xx and 5xx; 200 by default) and
 * `init.headers` (an object, an array of pairs or a `Headers`; several `Set-Cookie` all
 * arrive). The framework's own headers (the security headers, the body's type and length)
 * always win. A status no page can have throws a `RangeError` here, so the route ends in the
 * 500 page with one error line that says why; so does a header value no header may hold (CR,
 * LF…), with a `HeaderValueError` that names the header, never its value.
 */
export function data<Data>(value: Data, init?: AnswerInit): DataWithResponseInit<Data> {
  const given = initOf(init);
  const status = given?.status;
  if (status !== undefined && !isPageStatus(status)) {
    const hint = status >= 300 && status <= 399 ? ': use redirect(url, status) to redirect' : '';
    throw new RangeError(`data() status ${status} is not a status a page can be answered with (2xx but 204 and 205, 4xx, 5xx)${hint}`);
  }
  // Made here, so a header value Fetch refuses fails where the route called it, named but not quoted.
  return new DataWithResponseInit(value, given?.headers === undefined ? given : { ...given, headers: checkedHeaders('data()', given.headers) });
}

/** The statuses `redirect()` accepts. */
export const REDIRECT_STATUSES: readonly number[] = [301, 302, 303, 307, 308];

/**
 * Thrown by `redirect()`, and answered by the server: by `load` (and `getLoadContext`) with
 * 302 by default, by an action with 303. Not an error of the app: it never reaches the log
 * unless it is thrown where nothing can answer it (while the page renders, or in a deferred
 * value), where it ends like any other throw.
 */
export class Redirect extends Error {
  override readonly name = 'Redirect';
  /** As the route gave it; the server resolves it against the request's URL. */
  readonly location: string;
  /** The status asked for; `undefined` for the default of where it was thrown. */
  readonly status: number | undefined;
  /** The headers to send along (a cookie cleared at sign-out, say). */
  readonly headers: Headers;

  constructor(location: string, status: number | undefined, headers: Headers) {
    super(`redirect() to ${location} where no redirect can be answered (only load, an action and getLoadContext can redirect)`);
    this.location = location;
    this.status = status;
    this.headers = headers;
  }
}

export function isRedirect(value: unknown): value is Redirect {
  return value instanceof Redirect;
}

/**
 * Ends `load` (302 Found by default) or an action (303 See Other by default) with a redirect to
 * `location`: a path of this site (`/orders/42`), a path relative to the request's URL, or an
 * absolute URL of the site's own origin. `init` is a status (301, 302, 303, 307 or 308) or
 * `{ status?, headers? }`. Refused with the 500 page and one error line: any other origin
 * (`https://evil.example/`, `//evil.example`, `/\evil.example`), and a location whose path,
 * once resolved, begins with `//` (`/.//evil.example`, `/%2e//evil.example`), which a browser
 * would read as another host. So a `?next=` parameter cannot turn a route into an open
 * redirect (docs/security.md, "No open redirects").
 */
export function redirect(location: string, init?: AnswerInit): never {
  const given = initOf(init);
  const status = given?.status;
  if (status !== undefined && !REDIRECT_STATUSES.includes(status)) {
    throw new RangeError(`redirect() status ${status} is not a redirect status (${REDIRECT_STATUSES.join(', ')})`);
  }
  // Made here, so a header name or value Fetch refuses fails where the route called it (a value named, not quoted).
  throw new Redirect(location, status, checkedHeaders('redirect()', given?.headers));
}
