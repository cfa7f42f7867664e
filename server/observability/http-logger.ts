import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';
import { isProbePath } from '../lifecycle/readiness.ts';
import { assignRequestId } from './request-id.ts';
import { requestPath } from './request-path.ts';

function omitFromLog(): undefined {
  return undefined;
}

/** What pino-http hands the object providers once the response is done. */
interface Completion {
  readonly responseTime: number;
}

function completionLine(req: Request, res: Response, done: Completion) {
  return {
    method: req.method,
    path: requestPath(req),
    route: res.locals.routePattern ?? null,
    status: res.statusCode,
    duration: done.responseTime,
    // Both follow X-Forwarded-* only from trusted proxies (Express's `trust proxy`).
    ip: req.ip,
    protocol: req.protocol,
  };
}

/**
 * One line per completed request (docs/observability.md) carrying only chosen fields: no headers, so no
 * cookie or authorization value can reach the log. Every line about the request carries
 * `reqId` through `req.log`. Probes log at debug so they do not flood the log.
 */
export function createHttpLogger(logger: Logger): HttpLogger<Request, Response> {
  return pinoHttp<Request, Response>({
    logger,
    // pino-http binds the whole request to a child logger it never uses with our options;
    // serializing (and redacting) its headers on every request was a large share of the CPU.
    wrapSerializers: false,
    serializers: { req: omitFromLog, res: omitFromLog },
    genReqId: assignRequestId,
    quietReqLogger: true,
    quietResLogger: true,
    customLogLevel: function chooseLevel(req) {
      return isProbePath(requestPath(req)) ? 'debug' : 'info';
    },
    customSuccessObject: completionLine,
    customErrorObject: function failedLine(req, res, _error, done: Completion) {
      return completionLine(req, res, done);
    },
    // A status of 500 is not a logging failure: the error itself has its own `error` line.
    customErrorMessage: function errorMessage() {
      return 'request completed';
    },
    customSuccessMessage: function successMessage(req, res) {
      return res.writableEnded && !req.readableAborted ? 'request completed' : 'request aborted';
    },
  });
}
