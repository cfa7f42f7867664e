import type { ServerResponse } from 'node:http';

/**
 * Answers one connection may owe at once. Node parses every pipelined request in a read (64 KiB
 * hold about 1,300 short GETs) before its own back-pressure pauses the socket, and queues an
 * answer for each; a client that never reads held ~12 MB that way. Browsers and proxies do not
 * pipeline at all; 32 is far more than any client that does needs, and bounds what a connection
 * holds to 32 answers.
 */
export const MAX_PENDING_ANSWERS = 32;

interface Queue {
  pending: number;
  /** The answer to the connection's latest request, until it closes. */
  latest: ServerResponse | undefined;
  readonly whenIdle: Array<() => void>;
}

/**
 * What the app owes on each connection (keyed by socket; the entry goes with it), counted from
 * the request's arrival until its response closes (delivered, or cut), so that the server can
 * refuse to queue more, and can write its own answer only after the ones ahead of it
 * (RFC 9112 §9.3.2: responses go in the order of the requests).
 */
export class AnswerQueues {
  readonly #queues = new WeakMap<object, Queue>();

  #queueOf(socket: object): Queue {
    let queue = this.#queues.get(socket);
    if (queue === undefined) {
      queue = { pending: 0, latest: undefined, whenIdle: [] };
      this.#queues.set(socket, queue);
    }
    return queue;
  }

  /** Counts `res` as owed on `socket`; false (and not counted) when the connection owes the maximum already. */
  admit(socket: object, res: ServerResponse): boolean {
    const queue = this.#queueOf(socket);
    if (queue.pending >= MAX_PENDING_ANSWERS) return false;
    queue.pending += 1;
    queue.latest = res;
    res.on('close', function answerClosed() {
      queue.pending -= 1;
      if (queue.latest === res) queue.latest = undefined;
      if (queue.pending === 0) for (const callback of queue.whenIdle.splice(0)) callback();
    });
    return true;
  }

  /** The answer owed to the latest request on `socket`, whose body may still be arriving; `undefined` once it closed. */
  latestOwed(socket: object): ServerResponse | undefined {
    return this.#queues.get(socket)?.latest;
  }

  /** Runs `callback` now if nothing is owed on `socket`, else once the last owed answer has closed. */
  whenIdle(socket: object, callback: () => void): void {
    const queue = this.#queueOf(socket);
    if (queue.pending === 0) callback();
    else queue.whenIdle.push(callback);
  }
}
