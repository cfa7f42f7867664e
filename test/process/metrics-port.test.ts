import { afterAll, expect, test } from 'vitest';
import { freePort } from '../../scripts/lib/loopback.ts';
import { startServerProcess, type ServerProcess } from '../support/proxy-harness.ts';

let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.stop();
});

test('METRICS_PORT serves Prometheus series by route pattern on its own port, never on the public one', async () => {
  const metricsPort = await freePort();
  server = await startServerProcess({ METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' });
  expect((await fetch(`${server.origin}/`)).status).toBe(200);
  expect((await fetch(`${server.origin}/no/such/page`)).status).toBe(404);

  expect((await fetch(`${server.origin}/metrics`)).status).toBe(404);
  const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  expect(scrape.status).toBe(200);
  const text = await scrape.text();
  expect(text).toContain('http_requests_total{route="/",method="GET",status="200"} 1');
  // The unknown page and the public /metrics: two 404s under one label, never their paths.
  expect(text).toContain('http_requests_total{route="unmatched",method="GET",status="404"} 2');
  expect(text).toContain('react_time_to_shell_seconds_count{route="/"} 1');
  expect(text).toContain('process_resident_memory_bytes');
  expect(text).not.toContain('/no/such/page');
  expect(text).not.toContain('route="/metrics"');
});
