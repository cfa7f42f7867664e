import type { Application, Request } from 'express';
import type { PageRequest } from '../../shared/api/route-definition.ts';
import { errorFields } from './error-fields.ts';

/** What the app's `onError` is told about a server error beside the error itself. */
export interface ServerErrorInfo {
  /** The digest of the error's one `error` line and of the visitor's status page. */
  readonly digest: string;
  /**
   * The request as a page's `load` sees it: method, absolute URL, headers. The hook is the app's
   * own code, so its headers are whole, cookies and `Authorization` included: an error tracker
   * should be sent only what it needs.
   */
  readonly request: PageRequest;
  /** The matched route's pattern (`/items/:id`), or null when the error came before one matched. */
  readonly route: string | null;
}

/**
 * The app's hook for server errors (docs/observability.md#reporting-errors): called once per
 * error, after its `error` line, on a later turn of the event loop. What it returns is not
 * awaited by the answer; a throw or a rejection is logged once, at warn.
 */
export type OnServerError = (error: unknown, info: ServerErrorInfo) => void | Promise<void>;

/** Hands one logged server error to the app's hook. */
export type ServerErrorReporter = (req: Request, error: unknown, digest: string) => void;

/** The request as the hook sees it: createApp makes it as a load's, on the app's public origin. */
export type RequestView = (req: Request) => PageRequest;

/** Each app's reporter, found from the request (`req.app`): several apps may share one process, as in tests. */
const reporters = new WeakMap<Application, ServerErrorReporter>();

/**
 * The reporter for the app's `onError`. The hook runs on the next turn (setImmediate), after the
 * handler that logged the error has sent or begun its answer: a slow hook never delays it, and a
 * hook that throws cannot change it.
 */
export function createServerErrorReporter(onError: OnServerError, requestView: RequestView): ServerErrorReporter {
  return function reportServerError(req, error, digest) {
    const route = req.res?.locals.routePattern ?? null;
    const info: ServerErrorInfo = { digest, request: requestView(req), route };
    function hookFailed(failure: unknown): void {
      // Its own line, at warn: the server error has its one `error` line already.
      req.log.warn({ digest, route, err: errorFields(failure) }, 'onError hook failed');
    }
    setImmediate(function callOnError() {
      try {
        const result = onError(error, info);
        Promise.resolve(result).catch(hookFailed);
      } catch (failure) {
        hookFailed(failure);
      }
    });
  };
}

/** Gives the app's server errors to `reporter` (createApp, when the app has `onError`). */
export function reportServerErrors(app: Application, reporter: ServerErrorReporter): void {
  reporters.set(app, reporter);
}

/** The reporter of the app serving `req`, if it has one. */
export function serverErrorReporter(req: Request): ServerErrorReporter | undefined {
  return reporters.get(req.app);
}
