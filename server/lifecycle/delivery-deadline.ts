import type { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Logger } from 'pino';
import { createSendQueueReader, type SendQueueReader } from './kernel-send-queue.ts';

/** How often an answer its producer is still writing at the deadline is looked at again. */
export const DELIVERY_RECHECK_MS = 1_000;

/** One answer owed on a connection, from its request's arrival until it is known delivered. */
interface Answer {
  /** When its deadline passes (performance.now()). */
  readonly dueAt: number;
  /** The response, until it finished: then only the numbers below are kept. */
  res: ServerResponse | undefined;
  /** Bytes written on the connection up to the answer's last byte, once it finished. */
  end: number;
  reqId: unknown;
  status: number;
}

/** What one connection's answers still owe, in the order of their requests (so of their deadlines), and its one timer. */
interface Connection {
  readonly socket: Socket;
  readonly answers: Answer[];
  timer: NodeJS.Timeout | undefined;
  timerAt: number;
  /** A read of the kernel's queue is under way for the answers due. */
  reading: boolean;
}

/**
 * Ends the connection at once, with a reset: the kernel drops what it still holds for the client.
 * A plain close would leave it sending that, behind a FIN, to a client that takes nothing.
 */
function reset(socket: Socket): void {
  try {
    socket.resetAndDestroy();
  } catch {
    // Not a TCP socket (a server listening on a pipe): closing is all there is.
    socket.destroy();
  }
}

/** Records where the answer ends on the connection, and lets go of the response. */
function finished(connection: Connection, answer: Answer): void {
  const { res } = answer;
  if (res === undefined) return;
  answer.end = connection.socket.bytesWritten;
  answer.reqId = res.req.id ?? null;
  answer.status = res.statusCode;
  answer.res = undefined;
}

/**
 * Every answer must be delivered `deadlineMs` after its request arrived, or its connection is
 * reset and one line says so (docs/rendering.md#delivery-deadline). Delivered means the client's
 * kernel acknowledged the answer's last byte: bytes Node holds (a queued answer, an ended one
 * that is not drained) and bytes the kernel holds (a finished answer the client never read)
 * count alike. An answer its producer is still writing at the deadline is the producer's to
 * bound (a page's render timeout ends its document) while the client takes its bytes; it is
 * looked at again every second. A finished answer costs its connection a few numbers until its
 * deadline, not its response.
 */
export class DeliveryDeadlines {
  readonly #deadlineMs: number;
  readonly #logger: Logger | undefined;
  readonly #sendQueues: SendQueueReader;
  readonly #connections = new WeakMap<Socket, Connection>();

  constructor(deadlineMs: number, logger: Logger | undefined, sendQueues: SendQueueReader = createSendQueueReader()) {
    this.#deadlineMs = deadlineMs;
    this.#logger = logger;
    this.#sendQueues = sendQueues;
  }

  /** Starts the deadline of `res`, counted from now: call it as its request arrives. */
  watch(req: IncomingMessage, res: ServerResponse): void {
    const { socket } = req;
    if (!(socket instanceof Socket)) return;
    const connection = this.#connectionOf(socket);
    const answer: Answer = { dueAt: performance.now() + this.#deadlineMs, res, end: 0, reqId: undefined, status: 0 };
    connection.answers.push(answer);
    // Before Node's own listener, which hands the socket to the next pipelined answer and flushes it.
    res.prependListener('finish', () => finished(connection, answer));
    res.on('close', () => {
      // Closed unfinished: the client left, or the answer was cut; nothing is left to deliver.
      const at = connection.answers.indexOf(answer);
      if (answer.res !== undefined && at !== -1) connection.answers.splice(at, 1);
    });
    this.#schedule(connection, answer.dueAt);
  }

  #connectionOf(socket: Socket): Connection {
    let connection = this.#connections.get(socket);
    if (connection === undefined) {
      const created: Connection = { socket, answers: [], timer: undefined, timerAt: Number.POSITIVE_INFINITY, reading: false };
      connection = created;
      this.#connections.set(socket, created);
      // Nothing of a closed connection is kept until its answers' deadlines.
      socket.once('close', function forgetConnection() {
        clearTimeout(created.timer);
        created.answers.length = 0;
      });
    }
    return connection;
  }

  #schedule(connection: Connection, at: number): void {
    if (connection.timer !== undefined && connection.timerAt <= at) return;
    clearTimeout(connection.timer);
    connection.timerAt = at;
    connection.timer = setTimeout(() => this.#check(connection), Math.max(0, at - performance.now()));
    // Answers queued behind a cut one never close; their timers must not hold the process.
    connection.timer.unref();
  }

  /** The next time one of the connection's answers needs a look, if any does. */
  #scheduleNext(connection: Connection): void {
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const answer of connection.answers) {
      if (answer.dueAt > now) {
        next = Math.min(next, answer.dueAt);
        break;
      }
      if (answer.res !== undefined) next = Math.min(next, now + DELIVERY_RECHECK_MS);
      else if (!connection.reading) next = Math.min(next, now);
    }
    if (next !== Number.POSITIVE_INFINITY) this.#schedule(connection, next);
  }

  #check(connection: Connection): void {
    connection.timer = undefined;
    connection.timerAt = Number.POSITIVE_INFINITY;
    const { socket, answers } = connection;
    if (socket.destroyed) return;
    const now = performance.now();
    let finishedDue = false;
    for (const answer of answers) {
      if (answer.dueAt > now) break;
      const { res } = answer;
      if (res === undefined) {
        finishedDue = true;
        continue;
      }
      // Nothing more will come (ended), it waits behind an earlier answer (no socket), or the client stopped taking it.
      if (res.writableEnded || res.socket === null || res.writableNeedDrain) {
        this.#cut(connection, res.req.id ?? null, res.statusCode);
        return;
      }
    }
    if (finishedDue && !connection.reading) this.#checkKernel(connection);
    this.#scheduleNext(connection);
  }

  /** The answers Node finished, due when the kernel's tables are read: delivered once the kernel holds none of their bytes. */
  #checkKernel(connection: Connection): void {
    const { socket, answers } = connection;
    connection.reading = true;
    this.#sendQueues.unacknowledgedBytes(socket).then(({ unacknowledged, at }) => {
      connection.reading = false;
      // Cut meanwhile (by an answer's Node-side check), or gone: nothing is owed any more.
      if (socket.destroyed) return;
      // Where the kernel does not say, an answer counts as delivered once Node handed it over.
      // What Node wrote since is counted as handed over too: a doubt goes the client's way.
      const acknowledged = unacknowledged === undefined ? Number.POSITIVE_INFINITY : socket.bytesWritten - unacknowledged;
      for (let i = 0; i < answers.length; ) {
        const answer = answers[i];
        if (answer === undefined || answer.dueAt > at) break;
        if (answer.res !== undefined) {
          i += 1;
          continue;
        }
        if (answer.end > acknowledged) {
          this.#cut(connection, answer.reqId, answer.status);
          return;
        }
        answers.splice(i, 1);
      }
      this.#scheduleNext(connection);
    });
  }

  /** One line per connection: the answers behind this one go with it. */
  #cut(connection: Connection, reqId: unknown, status: number): void {
    clearTimeout(connection.timer);
    connection.answers.length = 0;
    this.#logger?.info({ reqId, status, deadlineMs: this.#deadlineMs }, 'answer not delivered in time: connection closed');
    reset(connection.socket);
  }
}
