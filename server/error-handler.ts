import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';
import { HttpError } from '../shared/http-error.ts';
import { logServerError } from './server-error-log.ts';
import { sendStatusAnswer } from './status-response.ts';
import type { StatusPages } from './status-pages.ts';
import { toHttpError } from './to-http-error.ts';

export interface ErrorHandlerOptions {
  readonly pages: StatusPages;
  /** The configured public origin's host name; otherwise the request's, as Express resolves it. */
  readonly publicHost: string | undefined;
  /** Adds message and stack to the 500 page. Never on in production. */
  readonly development: boolean;
}

function developmentDetail(error: unknown): string {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
}

/**
 * The last middleware: 4xx errors become their status page; anything else is logged once
 * with a digest and answered with the 500 page that shows the same digest (SPEC §5).
 */
export function createErrorHandler({ pages, publicHost, development }: ErrorHandlerOptions): ErrorRequestHandler {
  return function handleError(error: unknown, req: Request, res: Response, next: NextFunction) {
    if (res.headersSent) {
      // Too late for a status page; let Express close the connection.
      next(error);
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
      status: 500,
      digest,
      host: publicHost ?? req.hostname ?? '',
      detail: development ? developmentDetail(original) : undefined,
    });
  };
}

/** No route matched: 404 for every method (SPEC §4). */
export function notFoundHandler(_req: Request, _res: Response, next: NextFunction): void {
  next(new HttpError(404));
}

/** A page exists at this path but not for this method. */
export function methodNotAllowed(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Allow', 'GET, HEAD');
  next(new HttpError(405));
}
