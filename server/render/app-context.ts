import { parseCookie } from 'cookie';
import type { Request, Response } from 'express';
import type { AppLoadContext, PageRequest } from '../../shared/api/route-definition.ts';
import { appHeaders } from '../security/app-headers.ts';
import { NO_APP_CONTEXT, type GetLoadContext, type LoadContextArgs } from './request-context.ts';

/** What the app's `getLoadContext` is given beside the request: the view its loads share, and their signal. */
export interface AppContextParts {
  readonly request: PageRequest;
  /** Made when first read, as a load's (page-lifecycle.ts). */
  readonly signal: () => AbortSignal;
}

/** The app's context for one request, and what puts the headers it set on the answer. */
export interface AppContextCall {
  readonly context: AppLoadContext | Promise<AppLoadContext>;
  /**
   * Called once the context has settled and nothing has stopped the request: the headers set on
   * `responseHeaders`, but those the framework keeps (app-headers.ts), go on the response, so
   * every answer it then gets carries them. Nothing when `getLoadContext` threw or never read them.
   */
  readonly sendHeaders: (res: Response) => void;
}

const WITHOUT: AppContextCall = { context: NO_APP_CONTEXT, sendHeaders: () => undefined };

/**
 * Calls the app's `getLoadContext` for the request (docs/building-an-app.md#the-request-cookies-and-the-apps-context),
 * or gives `{}` without one. Called once per request, by its run (route-run.ts): a post's action
 * and the loads of the page shown after it share what it made, and its headers are set once.
 */
export function callGetLoadContext(getLoadContext: GetLoadContext | undefined, req: Request, parts: AppContextParts): AppContextCall {
  if (getLoadContext === undefined) return WITHOUT;
  const args = new ContextArgs(req, parts);
  return {
    context: getLoadContext(args),
    sendHeaders: function sendContextHeaders(response: Response) {
      const given = args.given();
      if (given === undefined) return;
      // Owned names, Cache-Control and Vary left out with one warn line; each cookie on its own.
      const own = appHeaders(req, response.locals.routePattern ?? null, given, 'context');
      for (const [name, value] of own.headers) response.setHeader(name, value);
      for (const cookie of own.cookies) response.append('Set-Cookie', cookie);
    },
  };
}

/** A class for the lazy fields, as the load's context is (request-context.ts): the cookies and the headers are made when read. */
class ContextArgs implements LoadContextArgs {
  readonly request: PageRequest;
  readonly requestId: string;
  readonly #req: Request;
  readonly #signal: () => AbortSignal;
  #cookies: Readonly<Record<string, string | undefined>> | undefined;
  #headers: Headers | undefined;

  constructor(req: Request, { request, signal }: AppContextParts) {
    this.request = request;
    this.requestId = String(req.id);
    this.#req = req;
    this.#signal = signal;
  }

  get cookies(): Readonly<Record<string, string | undefined>> {
    this.#cookies ??= Object.freeze(parseCookie(this.#req.headers.cookie ?? ''));
    return this.#cookies;
  }

  get signal(): AbortSignal {
    return this.#signal();
  }

  get responseHeaders(): Headers {
    this.#headers ??= new Headers();
    return this.#headers;
  }

  /** The headers set, if `responseHeaders` was ever read. */
  given(): Headers | undefined {
    return this.#headers;
  }
}
