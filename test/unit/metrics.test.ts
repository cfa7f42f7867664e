import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createMetrics } from '../../server/observability/metrics.ts';
import { createMetricsServer } from '../../server/observability/metrics-server.ts';
import { Gauge } from 'prom-client';
import { createLogger } from '../../server/observability/logger.ts';
import { buildApp, LEVEL, type LogLine } from '../support/build-app.ts';
import { unitRoutes } from '../support/pages.tsx';
import { VITALS_ENDPOINT } from '../../shared/protocol/telemetry.ts';
import type { Server } from 'node:http';

describe('Prometheus metrics', () => {
  test('count requests by route pattern, method and status, never by raw path', async () => {
    const metrics = await createMetrics({ processMetrics: false });
    const { app } = buildApp(unitRoutes(), { metrics });
    await request(app).get('/users/1');
    await request(app).get('/users/2');
    await request(app).post('/users/3');
    await request(app).get('/some/random/path');
    const text = await metrics.registry.metrics();
    expect(text).toContain('http_requests_total{route="/users/:id",method="GET",status="200"} 2');
    expect(text).toContain('http_requests_total{route="/users/:id",method="POST",status="405"} 1');
    expect(text).toContain('http_requests_total{route="unmatched",method="GET",status="404"} 1');
    expect(text).toContain('http_request_duration_seconds_count{route="/users/:id",method="GET",status="200"} 2');
    expect(text).toContain('react_time_to_shell_seconds_count{route="/users/:id"} 2');
    expect(text).toContain('http_requests_in_flight 0');
    expect(text).not.toContain('/users/1');
    expect(text).not.toContain('random');
  });

  test('record the web vitals browsers report, timings in seconds and CLS as it is', async () => {
    const metrics = await createMetrics({ processMetrics: false });
    const { app } = buildApp(unitRoutes(), { metrics, telemetry: { enabled: true, ratePerMinute: 100 } });
    const report = { id: 'v5-1700000000000-123', route: '/users/:id', requestId: 'req-1' };
    for (const vital of [
      { ...report, name: 'CLS', value: 0.12, rating: 'needs-improvement' },
      { ...report, name: 'LCP', value: 2500, rating: 'good' },
    ]) {
      await request(app).post(VITALS_ENDPOINT).set('Content-Type', 'application/json').send(JSON.stringify(vital)).expect(204);
    }
    const text = await metrics.registry.metrics();
    expect(text).toContain('web_vitals_sum{metric="CLS",route="/users/:id",rating="needs-improvement"} 0.12\n');
    expect(text).toContain('web_vitals_sum{metric="LCP",route="/users/:id",rating="good"} 2.5\n');
  });

  test('include default process metrics', async () => {
    const metrics = await createMetrics();
    const text = await metrics.registry.metrics();
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  test('are served on their own listener and not on the public port', async () => {
    const metrics = await createMetrics({ processMetrics: false });
    const { app } = buildApp(unitRoutes(), { metrics });
    await request(app).get('/metrics').expect(404);

    const metricsServer: Server = createMetricsServer(metrics.registry, silentLogger());
    await new Promise<void>((resolve) => metricsServer.listen(0, '127.0.0.1', resolve));
    try {
      const res = await request(metricsServer).get('/metrics');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain');
      expect(res.text).toContain('# TYPE http_requests_total counter');
      await request(metricsServer).get('/').expect(404);
      // Prometheus sends a scrape job's `params` as a query: the path is still /metrics.
      expect((await request(metricsServer).get('/metrics?module=web&x=1').expect(200)).text).toContain('# TYPE http_requests_total counter');
      await request(metricsServer).get('/metricsx?y').expect(404);
    } finally {
      await new Promise<void>((resolve) => metricsServer.close(() => resolve()));
    }
  });

  test('a failed scrape answers 500 with a digest that its one error log line carries', async () => {
    const metrics = await createMetrics({ processMetrics: false });
    metrics.registry.registerMetric(
      new Gauge({
        name: 'broken_gauge',
        help: 'Its collect function fails, as a buggy custom metric would.',
        registers: [],
        collect() {
          throw new Error('collect failed');
        },
      }),
    );
    const lines: LogLine[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => lines.push(JSON.parse(line)) } });
    const res = await request(createMetricsServer(metrics.registry, logger)).get('/metrics');
    expect(res.status).toBe(500);
    const digest = /digest ([A-Za-z0-9_-]+)/.exec(res.text)?.[1];
    expect(digest).toBeDefined();
    expect(lines.filter((line) => line.level >= LEVEL.error)).toEqual([
      expect.objectContaining({ msg: 'metrics scrape failed', digest, err: expect.objectContaining({ message: 'collect failed' }) }),
    ]);
  });
});

function silentLogger() {
  return createLogger({ level: 'silent' });
}

describe('Server-Timing', () => {
  test('tells browser tools the time to shell of a rendered page', async () => {
    const { app } = buildApp(unitRoutes());
    const res = await request(app).get('/users/1');
    expect(res.headers['server-timing']).toMatch(/^shell;desc="React shell";dur=\d+\.\d$/);
  });

  test('is not on status pages', async () => {
    const { app } = buildApp(unitRoutes());
    const res = await request(app).get('/missing');
    expect(res.headers['server-timing']).toBeUndefined();
  });
});
