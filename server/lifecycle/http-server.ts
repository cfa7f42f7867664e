import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { PAGE_DEFAULTS } from '../config.ts';
import { createBareAnswer } from '../errors/bare-answer.ts';
import { setAsideUnreadableTarget } from '../http/request-target.ts';
import { MAX_PENDING_ANSWERS } from './answer-queue.ts';
import { ConnectionGuard } from './connection-guard.ts';

export { MAX_PENDING_ANSWERS };

export interface HttpServerOptions {
  readonly keepAliveTimeoutMs?: number;
  readonly headersTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  /** How often Node checks the headers and request timeouts: default TIMEOUT_CHECK_INTERVAL_MS. */
  readonly connectionsCheckingIntervalMs?: number;
  /**
   * Every answer the app has written must have reached the client this long after its request
   * arrived (acknowledged by its kernel, delivery-deadline.ts), or the connection is reset: the
   * bound pages have from the render timeout, for every answer. Default
   * `PAGE_DEFAULTS.renderTimeoutMs` (10 s); pass the configured render timeout.
   */
  readonly deliveryTimeoutMs?: number;
  readonly logger?: Logger;
}

/**
 * How often Node looks for connections past the headers or request timeout. Its default, 30 s,
 * lets a client hold a socket up to 30 s past either deadline (a 66 s headers timeout became 96);
 * a pass over the open connections once a second costs next to nothing.
 */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/**
 * The Node server around the app, as main.ts and the tests run it: the app (not Node) answers
 * a missing Host with its 400 page, and a target Express's router cannot read with the same;
 * requests Node's parser refuses get a short, clear status instead of a bare one, after the
 * answers owed ahead of them; CONNECT (we are no proxy) gets 405 rather than a dropped socket.
 * A connection owes at most MAX_PENDING_ANSWERS answers, and each must be delivered within
 * `deliveryTimeoutMs`.
 */
export function createHttpServer(app: RequestListener, options: HttpServerOptions = {}): Server {
  const guard = new ConnectionGuard(options.deliveryTimeoutMs ?? PAGE_DEFAULTS.renderTimeoutMs, options.logger);
  const server = createServer(
    {
      requireHostHeader: false,
      ...(options.keepAliveTimeoutMs === undefined ? {} : { keepAliveTimeout: options.keepAliveTimeoutMs }),
      ...(options.headersTimeoutMs === undefined ? {} : { headersTimeout: options.headersTimeoutMs }),
      ...(options.requestTimeoutMs === undefined ? {} : { requestTimeout: options.requestTimeoutMs }),
      connectionsCheckingInterval: options.connectionsCheckingIntervalMs ?? TIMEOUT_CHECK_INTERVAL_MS,
    },
    function serveRequest(req: IncomingMessage, res: ServerResponse) {
      if (!guard.admit(req, res)) return;
      setAsideUnreadableTarget(req);
      app(req, res);
    },
  );

  server.on('clientError', function answerClientError(error: NodeJS.ErrnoException, socket: Duplex) {
    guard.answerClientError(error, socket);
  });

  // RFC 9110 §10.1.1: an expectation we cannot meet gets 417, with the headers of every refusal.
  server.on('checkExpectation', function refuseExpectation(req: IncomingMessage, res: ServerResponse) {
    if (!guard.admit(req, res)) return;
    const answer = createBareAnswer(417);
    options.logger?.info({ reqId: answer.requestId, status: 417, expect: req.headers.expect ?? null }, 'expectation refused');
    res.writeHead(417, answer.headers.flat());
    res.end(answer.body);
  });

  server.on('connect', function refuseConnect(_req: IncomingMessage, socket: Duplex) {
    guard.answerBare(socket, 405, { method: 'CONNECT' }, 'CONNECT refused: not a proxy', [['Allow', 'GET, HEAD']]);
  });

  return server;
}
