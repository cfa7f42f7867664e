import type { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Logger } from 'pino';
import { createSendQueueReader, type SendQueueReader } from './kernel-send-queue.ts';

/** How often an answer its producer is still writing at the deadline is looked at again. */
export const DELIVERY_RECHECK_MS = 1_000;

/** One answer's delivery, from its request's arrival to its deadline. */
interface Delivery {
  /** The answer, until it finished: then only the numbers below are kept, not the response. */
  res: ServerResponse | undefined;
  readonly socket: Socket;
  /** Bytes written on the connection up to the answer's last byte, once it finished. */
  end: number | undefined;
  reqId: unknown;
  status: number;
  timer: NodeJS.Timeout | undefined;
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

/**
 * Every answer must be delivered `deadlineMs` after its request arrived, or its connection is
 * reset and one line says so. Delivered means the client's kernel acknowledged the answer's last
 * byte: bytes Node holds (a queued answer, an ended one that is not drained) and bytes the
 * kernel holds (a finished answer the client never read) count alike. An answer its producer
 * is still writing at the deadline is the producer's to bound (a page's render timeout ends its
 * document) while the client takes its bytes; it is looked at again every second.
 */
export class DeliveryDeadlines {
  readonly #deadlineMs: number;
  readonly #logger: Logger | undefined;
  readonly #sendQueues: SendQueueReader;
  /** The deliveries still watched on each connection: cleared with it, so a closed socket is not kept until its deadlines. */
  readonly #watched = new WeakMap<Socket, Set<Delivery>>();

  constructor(deadlineMs: number, logger: Logger | undefined, sendQueues: SendQueueReader = createSendQueueReader()) {
    this.#deadlineMs = deadlineMs;
    this.#logger = logger;
    this.#sendQueues = sendQueues;
  }

  /** Starts the deadline of `res`, counted from now: call it as its request arrives. */
  watch(req: IncomingMessage, res: ServerResponse): void {
    const { socket } = req;
    if (!(socket instanceof Socket)) return;
    const delivery: Delivery = { res, socket, end: undefined, reqId: undefined, status: 0, timer: undefined };
    this.#track(delivery);
    // Before Node's own listener, which hands the socket to the next pipelined answer and flushes it.
    res.prependListener('finish', () => this.#finished(delivery));
    res.on('close', () => this.#closed(delivery));
    delivery.timer = setTimeout(() => this.#check(delivery), this.#deadlineMs);
    // Answers queued behind a cut one never close; their timers must not hold the process.
    delivery.timer.unref();
  }

  #track(delivery: Delivery): void {
    let deliveries = this.#watched.get(delivery.socket);
    if (deliveries === undefined) {
      const watched = new Set<Delivery>();
      deliveries = watched;
      this.#watched.set(delivery.socket, watched);
      delivery.socket.once('close', function stopWatching() {
        for (const each of watched) clearTimeout(each.timer);
        watched.clear();
      });
    }
    deliveries.add(delivery);
  }

  #forget(delivery: Delivery): void {
    clearTimeout(delivery.timer);
    this.#watched.get(delivery.socket)?.delete(delivery);
  }

  #finished(delivery: Delivery): void {
    const { res } = delivery;
    if (res === undefined) return;
    delivery.end = delivery.socket.bytesWritten;
    delivery.reqId = res.req.id ?? null;
    delivery.status = res.statusCode;
    delivery.res = undefined;
  }

  /** Closed unfinished: the client left, or the answer was cut; nothing is left to deliver. */
  #closed(delivery: Delivery): void {
    if (delivery.res !== undefined) this.#forget(delivery);
  }

  #check(delivery: Delivery): void {
    const { res, socket } = delivery;
    if (socket.destroyed) {
      this.#forget(delivery);
      return;
    }
    if (res !== undefined) {
      // Nothing more will come (ended), it waits behind an earlier answer (no socket), or the client stopped taking it.
      if (res.writableEnded || res.socket === null || res.writableNeedDrain) {
        this.#cut(delivery, res.req.id ?? null, res.statusCode);
        return;
      }
      delivery.timer = setTimeout(() => this.#check(delivery), DELIVERY_RECHECK_MS);
      delivery.timer.unref();
      return;
    }
    this.#sendQueues.unacknowledgedBytes(socket).then((unacknowledged) => {
      // Where the kernel does not say, the answer counts as delivered once Node handed it over.
      // What Node wrote since is counted as handed over too: a doubt goes the client's way.
      // A connection already cut (by the check of an earlier answer in the same read) is logged once.
      if (!socket.destroyed && unacknowledged !== undefined && socket.bytesWritten - unacknowledged < (delivery.end ?? 0)) {
        this.#cut(delivery, delivery.reqId, delivery.status);
        return;
      }
      this.#forget(delivery);
    });
  }

  #cut(delivery: Delivery, reqId: unknown, status: number): void {
    this.#forget(delivery);
    this.#logger?.info({ reqId, status, deadlineMs: this.#deadlineMs }, 'answer not delivered in time: connection closed');
    reset(delivery.socket);
  }
}
