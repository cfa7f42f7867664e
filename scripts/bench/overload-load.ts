import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { BROWSER_HEADERS } from '../lib/http-get.ts';

/** How every request of an overload run ended. */
export interface OverloadCounts {
  /** 2xx, whole. */
  readonly answered: number;
  /** 503 with `Retry-After`, whole. */
  readonly refused: number;
  /** No whole answer within the deadline: timed out, reset, or cut before its end. */
  readonly unanswered: number;
  /** Any other status (a 503 without `Retry-After` among them). */
  readonly other: number;
  readonly p99AnsweredMs: number;
  readonly p99RefusedMs: number;
  /** The longest any request waited for its answer or refusal. */
  readonly maxMs: number;
}

export interface OverloadLoadOptions {
  readonly url: string;
  readonly connections: number;
  readonly durationSeconds: number;
  /** A request without a whole answer this long after it was sent is unanswered. */
  readonly deadlineMs: number;
}

type Outcome = 'answered' | 'refused' | 'unanswered' | 'other';

interface Ended {
  readonly outcome: Outcome;
  /** A refusal's `Retry-After`, in seconds. */
  readonly retryAfterSeconds: number;
}

function p99(samples: number[]): number {
  if (samples.length === 0) return 0;
  samples.sort((a, b) => a - b);
  return Math.round(samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.99))] ?? 0);
}

/**
 * Closed-loop load as browsers make it, unlike autocannon: `connections` clients on keep-alive
 * connections, each sending its next request once the previous answer is whole, and taking a
 * new connection when an answer says `Connection: close`. Every request is counted by how it
 * ended, so none can go missing: when the time is up no new request starts, and those under
 * way get until their deadline.
 */
export async function runOverloadLoad({ url, connections, durationSeconds, deadlineMs }: OverloadLoadOptions): Promise<OverloadCounts> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  const counts: Record<Outcome, number> = { answered: 0, refused: 0, unanswered: 0, other: 0 };
  const answeredMs: number[] = [];
  const refusedMs: number[] = [];
  let maxMs = 0;

  function once(): Promise<Ended> {
    return new Promise((resolve) => {
      const started = performance.now();
      let settled = false;
      const settle = (outcome: Outcome, retryAfterSeconds = 0) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const ms = performance.now() - started;
        maxMs = Math.max(maxMs, ms);
        if (outcome === 'answered') answeredMs.push(ms);
        if (outcome === 'refused') refusedMs.push(ms);
        counts[outcome] += 1;
        resolve({ outcome, retryAfterSeconds });
      };
      const req = request(url, { agent, headers: BROWSER_HEADERS }, (res) => {
        res.resume();
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) settle('answered');
          else if (status === 503 && res.headers['retry-after'] !== undefined) settle('refused', Number(res.headers['retry-after']) || 0);
          else settle('other');
        });
        res.on('error', () => settle('unanswered'));
        res.on('aborted', () => settle('unanswered'));
      });
      const timer = setTimeout(() => {
        settle('unanswered');
        req.destroy();
      }, deadlineMs);
      req.on('error', () => settle('unanswered'));
      req.end();
    });
  }

  const endAt = performance.now() + durationSeconds * 1000;
  async function client(): Promise<void> {
    while (performance.now() < endAt) {
      const { outcome, retryAfterSeconds } = await once();
      // A refused client comes back when `Retry-After` says, as a balancer or a polite client
      // does; a failed one after a moment, rather than spinning.
      const pause = outcome === 'refused' ? retryAfterSeconds * 1000 : outcome === 'answered' ? 0 : 10;
      if (pause > 0) await sleep(Math.min(pause, Math.max(0, endAt - performance.now())));
    }
  }
  try {
    await Promise.all(Array.from({ length: connections }, client));
  } finally {
    agent.destroy();
  }
  return { ...counts, p99AnsweredMs: p99(answeredMs), p99RefusedMs: p99(refusedMs), maxMs: Math.round(maxMs) };
}
