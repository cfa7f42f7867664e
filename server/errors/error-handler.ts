import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { describeError } from '../../shared/views/describe-error.ts';
import { logServerError } from '../observability/server-error-log.ts';
import { sendStatusAnswer } from './status-answer.ts';
import type { StatusPages } from './status-pages.ts';
import { keptServerStatus } from '../../shared/api/http-error.ts';
import { toHttpError } from './to-http-error.ts';

export interface ErrorHandlerOptions {
  readonly pages: StatusPages;
  /** The configured public origin's host name; otherwise the request's, as Express resolves it. */
  readonly publicHost: string | undefined;
  /** Adds message and stack to the 500 page. Never on in production. */
  readonly development: boolean;
}

/**
 * The last middleware: a status helper's error, the platform's own refusals and Express's body
 * parsers' become their 4xx status page; anything else, whatever `status` it carries, is logged
 * once with a digest and answered with the 500 page that shows the same digest (to-http-error.ts,
 * docs/status-pages.md); `serviceUnavailable()`'s 503 the same way, with its own status.
 */
export function createErrorHandler({ pages, publicHost, development }: ErrorHandlerOptions): ErrorRequestHandler {
  return function handleError(error: unknown, req: Request, res: Response, _next: unknown) {
    if (res.headersSent) {
      // Too late for a status page: log it like any other (Express's own handler would print
      // it with console.error) and cut the response, so the client cannot take a truncated
      // body for a whole one.
      logServerError(req, toHttpError(error).cause ?? error);
      res.destroy();
      return;
    }
    const httpError = toHttpError(error);
    if (httpError.status < 500) {
      sendStatusAnswer(req, res, pages, { status: httpError.status });
      return;
    }
    const original = httpError.cause ?? error;
    const digest = logServerError(req, original);
    sendStatusAnswer(req, res, pages, {
      status: keptServerStatus(httpError.status),
      digest,
      host: publicHost ?? req.hostname ?? '',
      detail: development ? describeError(original) : undefined,
    });
  };
}

/**
 * No route matched: 404 for every method (docs/status-pages.md). Answered directly rather than through an
 * HttpError: capturing a stack trace for every unknown address was measurable under load.
 */
export function createNotFoundHandler(pages: StatusPages): RequestHandler {
  return function notFound(req: Request, res: Response) {
    sendStatusAnswer(req, res, pages, { status: 404 });
  };
}

/** A page exists at this path but not for this method; `allow` lists those it has (POST with an action). */
export function createMethodNotAllowedHandler(pages: StatusPages, allow = 'GET, HEAD'): RequestHandler {
  return function methodNotAllowed(req: Request, res: Response) {
    res.setHeader('Allow', allow);
    sendStatusAnswer(req, res, pages, { status: 405 });
  };
}
