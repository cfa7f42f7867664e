import { parseCookie } from 'cookie';
import type { Request, Response } from 'express';
import type { AppLoadContext, LoadContext, PageRequest, RouteParams } from '../../shared/route-definition.ts';
import { requestUrl } from './request-url.ts';
import { searchParamsOf } from './route-params.ts';

/**
 * The `context` of an app without `getLoadContext`: nothing. Typed as the app's context on
 * purpose: an app that declares fields in `AppLoadContext` (docs/building-an-app.md) promises
 * them through its `getLoadContext`, and the one app that declares none passes `{}` as is.
 */
export const NO_APP_CONTEXT = Object.freeze({}) as AppLoadContext;

/** Makes the per-request value every `load` (and action) of the app receives as `context`. */
export type GetLoadContext = (req: Request, res: Response) => AppLoadContext | Promise<AppLoadContext>;

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
 * URL, headers and cookies are made from Node's objects the first time a page asks, so a page
 * that never looks pays nothing for them.
 */
export function createLoadContext(req: Request, { params, signal, context, publicOrigin, request }: LoadContextParts): LoadContext {
  let cookies: Readonly<Record<string, string | undefined>> | undefined;
  let searchParams: URLSearchParams | undefined;
  return {
    params,
    get searchParams() {
      searchParams ??= searchParamsOf(req.originalUrl);
      return searchParams;
    },
    request: request ?? createPageRequest(req, publicOrigin),
    get cookies() {
      // Stryker disable next-line StringLiteral: equivalent, the only stand-in Stryker tries holds no '=' and parses to {} as '' does
      cookies ??= Object.freeze(parseCookie(req.headers.cookie ?? ''));
      return cookies;
    },
    context,
    get signal() {
      return signal();
    },
    requestId: String(req.id),
  };
}

/** The request as a page sees it; the loads of one branch share it, so its headers are made once. */
export function createPageRequest(req: Request, publicOrigin: URL | undefined): PageRequest {
  let headers: Headers | undefined;
  let url: string | undefined;
  return {
    method: req.method,
    get url() {
      // The public origin when configured, else the request's own (request-url.ts).
      url ??= requestUrl(req, publicOrigin).href;
      return url;
    },
    get headers() {
      headers ??= toHeaders(req.headers);
      return headers;
    },
  };
}

/** Node's parsed headers as a Fetch `Headers`: names case-insensitive, repeats joined. */
function toHeaders(incoming: Request['headers']): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return headers;
}
