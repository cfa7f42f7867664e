import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { isProbePath } from '../http/probe-paths.ts';
import { clientAddress } from '../security/client-address.ts';
import { assignRequestId } from './request-id.ts';
import { requestPath } from './request-path.ts';

declare module 'http' {
  interface IncomingMessage {
    /** The request id (docs/observability.md), set by the request logger before anything else runs. */
    id: string;
    /** Lines about this request: each carries `reqId`. Made on first use. */
    log: Logger;
  }
}

/** The completion line of docs/observability.md, field by field, in this order. */
interface CompletionLine {
  readonly reqId: string;
  readonly method: string;
  readonly path: string;
  readonly route: string | null;
  readonly status: number;
  readonly duration: number;
  readonly ip: string | undefined;
  readonly protocol: string;
}

function omitFromLog(): undefined {
  return undefined;
}

const PARENT = Symbol('logger of the request lines');
const CHILD = Symbol('child logger of this request');

interface LoggedRequest {
  id: string;
  [PARENT]: Logger;
  [CHILD]?: Logger;
}

/**
 * `req.log`: the child logger that adds `reqId`, made when something first logs about the
 * request. Most requests (a page, a 404, a file) never do, and `logger.child()` serializes its
 * bindings each time. One getter for all requests, so every request has the same shape.
 */
const LAZY_LOG: PropertyDescriptor = {
  configurable: true,
  enumerable: false,
  get(this: LoggedRequest): Logger {
    let log = this[CHILD];
    if (log === undefined) {
      log = this[PARENT].child({ reqId: this.id });
      this[CHILD] = log;
    }
    return log;
  },
  set(this: LoggedRequest, log: Logger) {
    this[CHILD] = log;
  },
};

/**
 * Request ids and one line per request (docs/observability.md): assigns `req.id` (echoed in
 * `X-Request-Id`), gives `req.log`, and writes the completion line when the response finishes,
 * or closes before it could. The line carries chosen fields only: no headers, so no cookie or
 * authorization value can reach the log. Probes log at debug so they do not flood the log.
 */
export function createHttpLogger(logger: Logger): RequestHandler {
  // Raw request or response objects are dropped should a line ever name them `req` or `res`.
  const parent = logger.child({}, { serializers: { req: omitFromLog, res: omitFromLog } });
  return function logRequest(req: Request, res: Response, next: NextFunction) {
    const started = Date.now();
    const id = assignRequestId(req);
    req.id = id;
    (req as unknown as LoggedRequest)[PARENT] = parent;
    Object.defineProperty(req, 'log', LAZY_LOG);

    let logged = false;
    function logCompletion(): void {
      if (logged) return;
      logged = true;
      const path = requestPath(req);
      const probe = isProbePath(path);
      if (probe && !parent.isLevelEnabled('debug')) return;
      const line: CompletionLine = {
        reqId: id,
        method: req.method,
        path,
        route: res.locals.routePattern ?? null,
        status: res.statusCode,
        duration: Date.now() - started,
        // Both follow X-Forwarded-* only from trusted proxies (Express's `trust proxy`); the
        // address only when it is one, never the arbitrary text a forwarded header may hold.
        ip: clientAddress(req),
        protocol: req.protocol,
      };
      // A 500 is not a logging failure: the error itself has its own `error` line.
      const message = res.writableEnded && !req.readableAborted ? 'request completed' : 'request aborted';
      // One plain call: the line goes through the app's mixin, formatters and hooks like any other.
      parent[probe ? 'debug' : 'info'](line, message);
    }
    // Whichever comes first: `finish` once the response is handed to the system, `close` when
    // the connection went before it could be, `error` (which also keeps a late write's error
    // from becoming an uncaught exception).
    res.on('finish', logCompletion);
    res.on('close', logCompletion);
    res.on('error', logCompletion);
    next();
  };
}
