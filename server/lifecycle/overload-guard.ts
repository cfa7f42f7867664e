import type { OverloadLimits } from '../config.ts';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { sendStatusAnswer } from '../errors/status-answer.ts';
import type { StatusPages } from '../errors/status-pages.ts';
import { probeOf } from './readiness.ts';

/** When the server counts as saturated (docs/security.md#overload), read with the other settings. */
export type { OverloadLimits } from '../config.ts';

/** Why a request was refused, as the log line and the metric's `reason` label say it. */
export type OverloadReason = 'event_loop_delay' | 'in_flight' | 'heap_used' | 'rss';

/** What the process measures of itself, taken at most once per sample interval. */
export interface LoadReadings {
  readonly eventLoopDelayMs: number;
  readonly heapUsedBytes: number;
  readonly rssBytes: number;
}

/** Where readings come from: the process itself, or a test's figures. */
export interface ReadingSource {
  /** The readings since the previous call. */
  read(): LoadReadings;
  stop(): void;
}

/** How often the event-loop ticker runs: a turn longer than this shows as delay. */
export const TICK_MS = 10;

/**
 * The process's own readings, as @fastify/under-pressure takes them (heap used and RSS from
 * process.memoryUsage()), but with the event-loop delay of a ticker of its own: how late its
 * last tick came, or how late the next one is now, whichever is more. perf_hooks'
 * monitorEventLoopDelay() was tried: read during a turn of 150 ms, its histogram holds no new
 * sample and says 0, the moment the delay matters most.
 */
export function processReadings(): ReadingSource {
  let lastTick = performance.now();
  let lastDelayMs = 0;
  const ticker = setInterval(function tick() {
    const now = performance.now();
    lastDelayMs = Math.max(0, now - lastTick - TICK_MS);
    lastTick = now;
  }, TICK_MS);
  ticker.unref();
  return {
    read() {
      const overdueMs = performance.now() - lastTick - TICK_MS;
      const { heapUsed, rss } = process.memoryUsage();
      return { eventLoopDelayMs: Math.max(lastDelayMs, overdueMs, 0), heapUsedBytes: heapUsed, rssBytes: rss };
    },
    stop() {
      clearInterval(ticker);
    },
  };
}

/** What the guard increments for each refusal (observability/metrics.ts). */
export interface RefusalCounter {
  inc(labels: { readonly reason: OverloadReason }): void;
}

export interface OverloadGuardOptions {
  readonly limits: OverloadLimits;
  readonly pages: StatusPages;
  readonly logger: Logger;
  readonly refusals?: RefusalCounter | undefined;
  /** Default: processReadings(). */
  readonly readings?: ReadingSource;
  /** The late event loop refuses only with this many requests in flight. Default 8. */
  readonly delayNeedsInFlight?: number;
  /** Readings are at most this old when a request is weighed. Default 10 ms. */
  readonly sampleIntervalMs?: number;
  /** At most one warn line per this interval, with the counts since the last. Default 10 s. */
  readonly logIntervalMs?: number;
  /**
   * Paths under these pass while saturated: the built files (`/assets/`), answered from memory,
   * so that a page already answered is not left without its scripts and styles.
   */
  readonly passPrefixes?: readonly string[];
}

export interface OverloadGuard {
  /** The middleware: 503 with `Retry-After` while saturated; probes and built files always pass. */
  readonly refuseWhenOverloaded: RequestHandler;
  /** Why the server is saturated now, or undefined: `/readyz` answers 503 while it is. */
  saturation(): OverloadReason | undefined;
  /** Stops the readings and the pending log line. */
  close(): void;
}

/**
 * `delayNeedsInFlight`: a late event loop counts as saturation only with this many requests in
 * flight. One long turn with a few requests under way (a process compiling its first pages, a
 * long collection) is no overload, and refusing would not shorten it.
 */
export const OVERLOAD_DEFAULTS = { sampleIntervalMs: 10, logIntervalMs: 10_000, delayNeedsInFlight: 8 } as const;

/**
 * Refuses new work early, with a cheap 503, while the process is saturated, instead of taking
 * every request and answering all of them late or never. Hand-written rather than
 * @fastify/under-pressure, which is a Fastify plugin (its hook and reply API): the readings
 * are the same, the answer is this server's status page, and in-flight requests are counted too.
 */
export function createOverloadGuard(options: OverloadGuardOptions): OverloadGuard {
  const { limits, pages, logger, refusals } = options;
  const readings = options.readings ?? processReadings();
  const sampleIntervalMs = options.sampleIntervalMs ?? OVERLOAD_DEFAULTS.sampleIntervalMs;
  const logIntervalMs = options.logIntervalMs ?? OVERLOAD_DEFAULTS.logIntervalMs;
  const delayNeedsInFlight = options.delayNeedsInFlight ?? OVERLOAD_DEFAULTS.delayNeedsInFlight;
  let latest: LoadReadings = { eventLoopDelayMs: 0, heapUsedBytes: 0, rssBytes: 0 };
  let sampledAt = Number.NEGATIVE_INFINITY;
  let inFlight = 0;
  const retryAfter = String(limits.retryAfterSeconds);
  const passPrefixes = options.passPrefixes ?? [];

  // The log line: the first refusal after a quiet interval is logged at once; later ones are
  // counted and written together when the interval is over.
  let loggedAt = Number.NEGATIVE_INFINITY;
  let pending: Map<OverloadReason, number> | undefined;
  let flushTimer: NodeJS.Timeout | undefined;

  function current(): LoadReadings {
    const now = performance.now();
    if (now - sampledAt >= sampleIntervalMs) {
      latest = readings.read();
      sampledAt = now;
    }
    return latest;
  }

  function saturation(): OverloadReason | undefined {
    const { eventLoopDelayMs, heapUsedBytes, rssBytes } = current();
    if (limits.maxInFlight > 0 && inFlight >= limits.maxInFlight) return 'in_flight';
    if (limits.maxEventLoopDelayMs > 0 && inFlight >= delayNeedsInFlight && eventLoopDelayMs > limits.maxEventLoopDelayMs) return 'event_loop_delay';
    if (limits.maxHeapUsedBytes > 0 && heapUsedBytes > limits.maxHeapUsedBytes) return 'heap_used';
    if (limits.maxRssBytes > 0 && rssBytes > limits.maxRssBytes) return 'rss';
    return undefined;
  }

  function writeLine(counts: ReadonlyMap<OverloadReason, number>, reason: OverloadReason): void {
    loggedAt = performance.now();
    const refused = [...counts.values()].reduce((sum, count) => sum + count, 0);
    logger.warn(
      {
        refused,
        reasons: Object.fromEntries(counts),
        reason,
        intervalMs: logIntervalMs,
        inFlight,
        eventLoopDelayMs: Math.round(latest.eventLoopDelayMs),
        heapUsedBytes: latest.heapUsedBytes,
        rssBytes: latest.rssBytes,
      },
      'overloaded: new requests refused with 503',
    );
  }

  function flush(): void {
    flushTimer = undefined;
    const counts = pending;
    pending = undefined;
    const last = counts === undefined ? undefined : [...counts.keys()].at(-1);
    if (counts !== undefined && last !== undefined) writeLine(counts, last);
  }

  function noteRefusal(reason: OverloadReason): void {
    refusals?.inc({ reason });
    const sinceLine = performance.now() - loggedAt;
    if (pending === undefined && sinceLine >= logIntervalMs) {
      writeLine(new Map([[reason, 1]]), reason);
      return;
    }
    pending ??= new Map();
    // Deleted and set again, so the last key is the latest reason.
    const count = (pending.get(reason) ?? 0) + 1;
    pending.delete(reason);
    pending.set(reason, count);
    flushTimer ??= setTimeout(flush, Math.max(0, logIntervalMs - sinceLine)).unref();
  }

  return {
    refuseWhenOverloaded: function refuseWhenOverloaded(req: Request, res: Response, next: NextFunction) {
      if (probeOf(req.path) !== undefined || passPrefixes.some((prefix) => req.path.startsWith(prefix))) {
        next();
        return;
      }
      const reason = saturation();
      if (reason === undefined) {
        inFlight += 1;
        res.once('close', function requestDone() {
          inFlight -= 1;
        });
        next();
        return;
      }
      noteRefusal(reason);
      // The connection stays open: the server accepts one connection per turn of its event
      // loop (libuv), so a client made to connect again would wait behind every connection queued.
      res.setHeader('Retry-After', retryAfter);
      sendStatusAnswer(req, res, pages, { status: 503 });
    },
    saturation,
    close() {
      clearTimeout(flushTimer);
      flushTimer = undefined;
      readings.stop();
    },
  };
}
