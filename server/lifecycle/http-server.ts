import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { DEFAULTS } from '../config.ts';
import { createBareAnswer, serializeBareAnswer } from '../errors/bare-answer.ts';
import { AnswerQueues, MAX_PENDING_ANSWERS } from './answer-queue.ts';
import { requestDeadlinePassed } from '../http/body-limit.ts';
import type { HeaderPair } from '../http/response-head.ts';
import { setAsideUnreadableTarget } from '../http/request-target.ts';

export { MAX_PENDING_ANSWERS };

export interface HttpServerOptions {
  readonly keepAliveTimeoutMs?: number;
  readonly headersTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  /** How often Node checks the headers and request timeouts: default TIMEOUT_CHECK_INTERVAL_MS. */
  readonly connectionsCheckingIntervalMs?: number;
  /**
   * Every answer the app has written must have reached the client this long after its request
   * arrived, or the connection is closed: the bound pages have from the render timeout, for every
   * answer. Default `DEFAULTS.renderTimeoutMs` (10 s); pass the configured render timeout.
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
 * After its last answer the server half-closes, then gives the client this long to read that
 * answer before the socket goes: closing at once, with bytes from the client unread, makes the
 * kernel send a reset that can destroy the answer before it is read (RFC 9112 §9.6).
 */
const LINGER_MS = 1_000;

/** Errors Node's parser raises before Express sees a request, mapped to their status. */
function statusForClientError(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (code === 'HPE_URI_TOO_LONG') return 414;
  // Chunk extensions past Node's limit (16 KiB): Node's own handler says 413 too.
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return 413;
  return 400;
}

/** Half-closes after `lastBytes`, then closes when the client does, or after `LINGER_MS` at the latest. */
function closeInStages(socket: Duplex, lastBytes?: string): void {
  if (lastBytes === undefined) socket.end();
  else socket.end(lastBytes);
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/**
 * Cuts the connection if the app's answer is not delivered `deadlineMs` after the request arrived,
 * and has nothing left to produce (ended), or waits behind an earlier answer (no socket yet).
 * An answer still being produced is its producer's to bound: a page's render timeout does so.
 */
function watchDelivery(req: IncomingMessage, res: ServerResponse, deadlineMs: number, logger: Logger | undefined): void {
  const timer = setTimeout(function deliveryDeadlinePassed() {
    const stalled = !res.writableFinished && (res.writableEnded || res.socket === null);
    if (!stalled || req.socket.destroyed) return;
    logger?.info({ reqId: req.id ?? null, status: res.statusCode, deadlineMs }, 'answer not delivered in time: connection closed');
    req.socket.destroy();
  }, deadlineMs);
  // Answers queued behind a cut one never close; their timers must not hold the process.
  timer.unref();
  res.on('close', () => clearTimeout(timer));
}

/**
 * The Node server around the app, as main.ts and the tests run it: the app (not Node) answers
 * a missing Host with its 400 page, and a target Express's router cannot read with the same;
 * requests Node's parser refuses get a short, clear status instead of a bare one, after the
 * answers owed ahead of them; CONNECT (we are no proxy) gets 405 rather than a dropped socket.
 * A connection owes at most MAX_PENDING_ANSWERS answers, and each must be delivered within
 * `deliveryTimeoutMs`.
 */
export function createHttpServer(app: RequestListener, options: HttpServerOptions = {}): Server {
  const { logger } = options;
  const deliveryTimeoutMs = options.deliveryTimeoutMs ?? DEFAULTS.renderTimeoutMs;
  const queues = new AnswerQueues();
  /** Connections whose parser failed: it repeats the error on every later read, and one answer is enough. */
  const refused = new WeakSet<Duplex>();
  /** Connections that asked for more than the bound: they are served what was admitted, then closed. */
  const overflowing = new WeakSet<Duplex>();

  /** A plain answer for a request the app never saw, once every answer owed ahead of it is out. */
  function answerBare(socket: Duplex, status: number, fields: Record<string, unknown>, message: string, extraHeaders: readonly HeaderPair[] = []): void {
    queues.whenIdle(socket, function writeBareAnswer() {
      // The answer ahead closed the connection (a broken frame, RFC 9112 §6.3), or it was cut.
      if (!socket.writable) {
        socket.destroy();
        return;
      }
      const answer = createBareAnswer(status, extraHeaders);
      logger?.info({ reqId: answer.requestId, status, ...fields }, message);
      closeInStages(socket, serializeBareAnswer(answer));
    });
  }

  /**
   * One request too many on a connection: it never reaches the app, the connection stops reading
   * (RFC 9112 §9.3.2 lets a client retry what was not answered), delivers what it owes, then closes.
   */
  function refuseOverflow(socket: Duplex): void {
    if (overflowing.has(socket)) return;
    overflowing.add(socket);
    logger?.info({ pending: MAX_PENDING_ANSWERS }, 'too many pipelined requests: connection closes after the answers it owes');
    socket.pause();
    queues.whenIdle(socket, () => closeInStages(socket));
  }

  /** Counts the answer as owed and bounds its delivery; false when the connection may owe no more. */
  function admitted(req: IncomingMessage, res: ServerResponse): boolean {
    if (overflowing.has(req.socket) || !queues.admit(req.socket, res)) {
      refuseOverflow(req.socket);
      return false;
    }
    watchDelivery(req, res, deliveryTimeoutMs, logger);
    return true;
  }

  function serveRequest(req: IncomingMessage, res: ServerResponse): void {
    if (!admitted(req, res)) return;
    setAsideUnreadableTarget(req);
    app(req, res);
  }

  /**
   * The request deadline passed while the latest request's body was still arriving. That
   * request's answer is owed, so a bare 408 queued behind it would wait for ever (the app waits
   * for the body); its body reader answers 408 instead, with the app's page. An answer the app
   * gave before the body came (a 413, say) stands, and the connection closes after it; one that
   * nothing gives, or that is half sent, ends with the connection, as Node's own handler would.
   */
  function timeOutBody(socket: Duplex, res: ServerResponse): void {
    const { req } = res;
    logger?.info({ reqId: req.id ?? null, code: 'ERR_HTTP_REQUEST_TIMEOUT' }, 'request body not received in time');
    if (res.headersSent) {
      if (res.writableFinished) closeInStages(socket);
      else socket.destroy();
      return;
    }
    if (!requestDeadlinePassed(req)) {
      socket.destroy();
      return;
    }
    // The reader's answer closes the connection (its body was not read); should it not come, the socket goes.
    setTimeout(() => {
      if (!res.headersSent) socket.destroy();
    }, LINGER_MS).unref();
  }

  const server = createServer(
    {
      requireHostHeader: false,
      ...(options.keepAliveTimeoutMs === undefined ? {} : { keepAliveTimeout: options.keepAliveTimeoutMs }),
      ...(options.headersTimeoutMs === undefined ? {} : { headersTimeout: options.headersTimeoutMs }),
      ...(options.requestTimeoutMs === undefined ? {} : { requestTimeout: options.requestTimeoutMs }),
      connectionsCheckingInterval: options.connectionsCheckingIntervalMs ?? TIMEOUT_CHECK_INTERVAL_MS,
    },
    serveRequest,
  );

  server.on('clientError', function answerClientError(error: NodeJS.ErrnoException, socket: Duplex) {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    if (refused.has(socket)) return;
    refused.add(socket);
    const latest = queues.latestOwed(socket);
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && latest !== undefined && !latest.req.complete) {
      timeOutBody(socket, latest);
      return;
    }
    // Node's own handler writes only when no response on the socket has sent its headers, and
    // otherwise destroys it; waiting for the answers owed ahead also keeps those whole.
    answerBare(socket, statusForClientError(error.code), { code: error.code ?? null }, 'request refused by the HTTP parser');
  });

  // RFC 9110 §10.1.1: an expectation we cannot meet gets 417, with the headers of every refusal.
  server.on('checkExpectation', function refuseExpectation(req: IncomingMessage, res: ServerResponse) {
    if (!admitted(req, res)) return;
    const answer = createBareAnswer(417);
    logger?.info({ reqId: answer.requestId, status: 417, expect: req.headers.expect ?? null }, 'expectation refused');
    res.writeHead(417, answer.headers.flat());
    res.end(answer.body);
  });

  server.on('connect', function refuseConnect(_req: IncomingMessage, socket: Duplex) {
    answerBare(socket, 405, { method: 'CONNECT' }, 'CONNECT refused: not a proxy', [['Allow', 'GET, HEAD']]);
  });

  return server;
}
