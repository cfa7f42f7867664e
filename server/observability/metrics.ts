import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { VitalReport } from '../../shared/protocol/telemetry.ts';

/** Prometheus series of docs/observability.md, on their own registry so tests and instances stay apart. */
export interface Metrics {
  readonly registry: Registry;
  readonly requests: Counter<'route' | 'method' | 'status'>;
  readonly duration: Histogram<'route' | 'method' | 'status'>;
  readonly inFlight: Gauge;
  /** Requests refused with 503 while the process was saturated, by reason (lifecycle/overload-guard.ts). */
  readonly overloadRefusals: Counter<'reason'>;
  observeShell(route: string, seconds: number): void;
  observeVital(report: VitalReport): void;
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * prom-client is loaded here, on demand: with metrics off (the default) the process never
 * pays its start-up cost.
 */
export async function createMetrics({ processMetrics = true }: { readonly processMetrics?: boolean } = {}): Promise<Metrics> {
  const { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } = await import('prom-client');
  const registry = new Registry();
  if (processMetrics) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Completed HTTP requests by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to the end of the response, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const shell = new Histogram({
    name: 'react_time_to_shell_seconds',
    help: 'Time from the page handler starting (load included) to the shell being ready to send, by route pattern; for a crawler, to the whole document.',
    labelNames: ['route'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const inFlight = new Gauge({ name: 'http_requests_in_flight', help: 'Requests being answered now.', registers: [registry] });
  const overloadRefusals = new Counter({
    name: 'http_overload_refusals_total',
    help: 'Requests refused with 503 and Retry-After while the process was saturated, by reason: event_loop_delay, in_flight, heap_used, rss.',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const vitals = new Histogram({
    name: 'web_vitals',
    help: 'Web vitals reported by browsers (seconds; CLS unitless), by metric and route pattern.',
    labelNames: ['metric', 'route', 'rating'] as const,
    buckets: [0.01, 0.05, 0.1, 0.2, 0.5, 1, 2, 4, 8, 16],
    registers: [registry],
  });

  return {
    registry,
    requests,
    duration,
    inFlight,
    overloadRefusals,
    observeShell(route, seconds) {
      shell.observe({ route }, seconds);
    },
    observeVital({ name, value, route, rating }) {
      // web-vitals reports milliseconds for timings; Prometheus convention is seconds.
      vitals.observe({ metric: name, route, rating }, name === 'CLS' ? value : value / 1000);
    },
  };
}
