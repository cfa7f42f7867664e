import { parseCookie } from 'cookie';
import type { Request } from 'express';
import type { AppLoadContext, LoadContext, PageRequest, RouteParams } from '../../shared/api/route-definition.ts';
import { RequestHeaders } from './request-headers.ts';
import { requestUrl } from './request-url.ts';
import { searchParamsOf } from './route-params.ts';

/**
 * The `context` of an app without `getLoadContext`: nothing. Typed as the app's context on
 * purpose: an app that declares fields in `AppLoadContext` (docs/building-an-app.md) promises
 * them through its `getLoadContext`, and the one app that declares none passes `{}` as is.
 */
export const NO_APP_CONTEXT = Object.freeze({}) as AppLoadContext;

/**
 * What the app's `getLoadContext` receives, once per request (docs/building-an-app.md): the
 * request as `load` sees it, and the headers every answer to it carries. No Express object:
 * the app's escape hatch to Express is its `middleware(router)`.
 */
export interface LoadContextArgs {
  /** The request's method, absolute URL and Fetch `Headers`, the same object `load` gets. */
  readonly request: PageRequest;
  /** The request's cookies, parsed; read-only. Never logged. */
  readonly cookies: Readonly<Record<string, string | undefined>>;
  /** The request's id, as in the log and `X-Request-Id`. */
  readonly requestId: string;
  /** Aborted when the client goes away or the render timeout passes, as `load`'s. */
  readonly signal: AbortSignal;
  /**
   * Headers for every answer this request gets: its document, navigation data, a fetcher's or a
   * resource route's answer, a redirect, a status page (`append('Set-Cookie', …)` for each
   * cookie). Sent once `getLoadContext` has returned; not when it throws. A route's own header of
   * the same name replaces one set here; the framework's own, `Cache-Control` and `Vary` cannot
   * be set here (docs/responses.md).
   */
  readonly responseHeaders: Headers;
}

/** Makes the per-request value every `load` (and action) of the app receives as `context`. */
export type GetLoadContext = (args: LoadContextArgs) => AppLoadContext | Promise<AppLoadContext>;

export interface LoadContextParts {
  readonly params: RouteParams;
  /** The signal, asked for when the load first reads it (page-lifecycle.ts makes it then). */
  readonly signal: () => AbortSignal;
  readonly context: AppLoadContext;
  readonly publicOrigin: URL | undefined;
  /** The request as a page sees it, when another load of the same request made it already. */
  readonly request?: PageRequest;
}

/**
 * What `load` receives (docs/building-an-app.md): the request's method, absolute URL, headers
 * with Fetch semantics and parsed cookies, plus the app's own context. The search parameters,
 * URL, headers, cookies and signal are made from Node's objects the first time a page asks, so
 * a page that never looks pays nothing for them.
 */
export function createLoadContext(req: Request, parts: LoadContextParts): LoadContext {
  return new PageLoadContext(req, parts);
}

/** The request as a page sees it; the loads of one branch share it, so its headers are made once. */
export function createPageRequest(req: Request, publicOrigin: URL | undefined): PageRequest {
  return new PageRequestView(req, publicOrigin);
}

/**
 * Classes rather than object literals with getters: a literal's getters are defined anew, with
 * closures of their own, every time it is made, which showed in V8's profile of a page under
 * load; a class's are its prototype's. Read them as any object's fields
 * (`const { params, signal } = context`); the lazy ones are not own properties.
 */
class PageLoadContext implements LoadContext {
  readonly params: RouteParams;
  readonly request: PageRequest;
  readonly context: AppLoadContext;
  readonly requestId: string;
  readonly #req: Request;
  readonly #signal: () => AbortSignal;
  #searchParams: URLSearchParams | undefined;
  #cookies: Readonly<Record<string, string | undefined>> | undefined;

  constructor(req: Request, { params, signal, context, publicOrigin, request }: LoadContextParts) {
    this.params = params;
    this.request = request ?? createPageRequest(req, publicOrigin);
    this.context = context;
    this.requestId = String(req.id);
    this.#req = req;
    this.#signal = signal;
  }

  get searchParams(): URLSearchParams {
    this.#searchParams ??= searchParamsOf(this.#req.originalUrl);
    return this.#searchParams;
  }

  get cookies(): Readonly<Record<string, string | undefined>> {
    // Stryker disable next-line StringLiteral: equivalent, the only stand-in Stryker tries holds no '=' and parses to {} as '' does
    this.#cookies ??= Object.freeze(parseCookie(this.#req.headers.cookie ?? ''));
    return this.#cookies;
  }

  get signal(): AbortSignal {
    return this.#signal();
  }
}

class PageRequestView implements PageRequest {
  readonly method: string;
  readonly #req: Request;
  readonly #publicOrigin: URL | undefined;
  #url: string | undefined;
  #headers: Headers | undefined;

  constructor(req: Request, publicOrigin: URL | undefined) {
    this.method = req.method;
    this.#req = req;
    this.#publicOrigin = publicOrigin;
  }

  get url(): string {
    // The public origin when configured, else the request's own (request-url.ts).
    this.#url ??= requestUrl(this.#req, this.#publicOrigin).href;
    return this.#url;
  }

  get headers(): Headers {
    this.#headers ??= new RequestHeaders(this.#req.headers);
    return this.#headers;
  }
}
