import autocannon from 'autocannon';
import { BROWSER_HEADERS } from '../lib/http-get.ts';

export interface LoadOptions {
  readonly url: string;
  readonly connections: number;
  readonly durationSeconds: number;
  /** Answers with any other status count as errors. */
  readonly expectedStatus: number;
  /** The `Cookie` header every request sends; none without it. */
  readonly cookie?: string | undefined;
}

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Unexpected statuses + connection errors + timeouts. */
  readonly errors: number;
  readonly unexpectedStatuses: number;
  readonly connectionErrors: number;
  readonly timeouts: number;
  readonly responses: number;
  readonly bytesPerResponse: number;
}

/** A response that has not arrived in this long is a timeout, and an error. */
const TIMEOUT_SECONDS = 10;

/**
 * Closed-loop load from this process: `connections` keep-alive connections, each sending its
 * next request when the previous answer is complete. Latencies include every status.
 */
export async function runLoad({ url, connections, durationSeconds, expectedStatus, cookie }: LoadOptions): Promise<LoadResult> {
  const headers = cookie === undefined ? { ...BROWSER_HEADERS } : { ...BROWSER_HEADERS, cookie };
  const result = await autocannon({ url, connections, duration: durationSeconds, timeout: TIMEOUT_SECONDS, headers });
  const counts = Object.entries(result.statusCodeStats ?? {}).map(([status, { count = 0 }]) => ({ status: Number(status), count }));
  const responses = counts.reduce((sum, { count }) => sum + count, 0);
  const expected = counts.find(({ status }) => status === expectedStatus)?.count ?? 0;
  const unexpectedStatuses = responses - expected;
  return {
    requestsPerSecond: responses / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: unexpectedStatuses + result.errors,
    unexpectedStatuses,
    // autocannon counts timeouts among its errors.
    connectionErrors: result.errors - result.timeouts,
    timeouts: result.timeouts,
    responses,
    bytesPerResponse: responses === 0 ? 0 : result.throughput.total / responses,
  };
}
