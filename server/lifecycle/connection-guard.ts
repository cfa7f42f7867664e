import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { createBareAnswer, serializeBareAnswer } from '../errors/bare-answer.ts';
import { requestDeadlinePassed } from '../http/body-limit.ts';
import type { HeaderPair } from '../http/response-head.ts';
import { AnswerQueues, MAX_PENDING_ANSWERS } from './answer-queue.ts';
import { DeliveryDeadlines } from './delivery-deadline.ts';

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
 * What the server owes each connection and how it refuses what it will not serve: it admits at
 * most MAX_PENDING_ANSWERS answers per connection, bounds the delivery of each, and writes its own
 * short answers (for requests the app never sees) only after the answers owed ahead of them.
 */
export class ConnectionGuard {
  readonly #queues = new AnswerQueues();
  /** Connections whose parser failed: it repeats the error on every later read, and one answer is enough. */
  readonly #refused = new WeakSet<Duplex>();
  /** Connections that asked for more than the bound: they are served what was admitted, then closed. */
  readonly #overflowing = new WeakSet<Duplex>();
  readonly #deadlines: DeliveryDeadlines;
  readonly #logger: Logger | undefined;

  constructor(deliveryTimeoutMs: number, logger: Logger | undefined) {
    this.#deadlines = new DeliveryDeadlines(deliveryTimeoutMs, logger);
    this.#logger = logger;
  }

  /** Counts the answer as owed and bounds its delivery; false when the connection may owe no more. */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.#overflowing.has(req.socket) || !this.#queues.admit(req.socket, res)) {
      this.#refuseOverflow(req.socket);
      return false;
    }
    this.#deadlines.watch(req, res);
    return true;
  }

  /** A plain answer for a request the app never saw, once every answer owed ahead of it is out. */
  answerBare(socket: Duplex, status: number, fields: Record<string, unknown>, message: string, extraHeaders: readonly HeaderPair[] = []): void {
    const logger = this.#logger;
    this.#queues.whenIdle(socket, function writeBareAnswer() {
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

  /** A request Node's parser refused: one short, clear status per connection, after the answers owed ahead. */
  answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    if (this.#refused.has(socket)) return;
    this.#refused.add(socket);
    const latest = this.#queues.latestOwed(socket);
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && latest !== undefined && !latest.req.complete) {
      this.#timeOutBody(socket, latest);
      return;
    }
    // Node's own handler writes only when no response on the socket has sent its headers, and
    // otherwise destroys it; waiting for the answers owed ahead also keeps those whole.
    this.answerBare(socket, statusForClientError(error.code), { code: error.code ?? null }, 'request refused by the HTTP parser');
  }

  /**
   * One request too many on a connection: it never reaches the app, the connection stops reading
   * (RFC 9112 §9.3.2 lets a client retry what was not answered), delivers what it owes, then closes.
   */
  #refuseOverflow(socket: Duplex): void {
    if (this.#overflowing.has(socket)) return;
    this.#overflowing.add(socket);
    this.#logger?.info({ pending: MAX_PENDING_ANSWERS }, 'too many pipelined requests: connection closes after the answers it owes');
    socket.pause();
    this.#queues.whenIdle(socket, () => closeInStages(socket));
  }

  /**
   * The request deadline passed while the latest request's body was still arriving. That
   * request's answer is owed, so a bare 408 queued behind it would wait for ever (the app waits
   * for the body); its body reader answers 408 instead, with the app's page. An answer the app
   * gave before the body came (a 413, say) stands, and the connection closes after it; one that
   * nothing gives, or that is half sent, ends with the connection, as Node's own handler would.
   */
  #timeOutBody(socket: Duplex, res: ServerResponse): void {
    const { req } = res;
    this.#logger?.info({ reqId: req.id ?? null, code: 'ERR_HTTP_REQUEST_TIMEOUT' }, 'request body not received in time');
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
}
