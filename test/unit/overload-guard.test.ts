import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { processReadings, TICK_MS, type LoadReadings, type OverloadLimits, type ReadingSource } from '../../server/lifecycle/overload-guard.ts';
import { createMetrics } from '../../server/observability/metrics.ts';
import type { PageRouteDefinition } from '../../shared/api/route-definition.ts';
import { asHydrating, buildApp, delay, LEVEL, waitFor, type LogLine } from '../support/build-app.ts';
import { unitRoutes } from '../support/pages.tsx';

/** Readings a test sets: the guard reads them as it would the process's. */
function fakeReadings(initial: Partial<LoadReadings> = {}): ReadingSource & { set(next: Partial<LoadReadings>): void } {
  let current: LoadReadings = { eventLoopDelayMs: 0, heapUsedBytes: 0, rssBytes: 0, ...initial };
  return {
    read: () => current,
    stop() {},
    set(next) {
      current = { ...current, ...next };
    },
  };
}

const LIMITS: OverloadLimits = { maxEventLoopDelayMs: 100, maxInFlight: 0, maxHeapUsedBytes: 0, maxRssBytes: 0, retryAfterSeconds: 3 };

/** The tests' requests come one at a time: a late loop refuses with none in flight unless a test says otherwise. */
function guardedApp(readings: ReadingSource, { limits = LIMITS, logIntervalMs = 10_000, routes = unitRoutes(), delayNeedsInFlight = 0 } = {}) {
  return buildApp(routes, { overload: { ...limits, readings, sampleIntervalMs: 0, logIntervalMs, delayNeedsInFlight } });
}

const overloadLines = (logs: readonly LogLine[]) => logs.filter((line) => line.msg === 'overloaded: new requests refused with 503');

describe('the overload guard', () => {
  test('answers pages as usual while the readings are under the limits', async () => {
    const { app, logs } = guardedApp(fakeReadings({ eventLoopDelayMs: 99 }));
    const res = await request(app).get('/users/1');
    expect(res.status).toBe(200);
    expect(res.headers['retry-after']).toBeUndefined();
    expect(overloadLines(logs)).toEqual([]);
  });

  test('refuses with the 503 status page and Retry-After while the event loop is late, with the security headers and a completion line', async () => {
    const { app, logs } = guardedApp(fakeReadings({ eventLoopDelayMs: 101 }));
    const res = await request(app).get('/users/1').set('Accept', 'text/html');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('3');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('Service Unavailable.');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("script-src 'none'");
    expect(res.headers['x-request-id']).toBeTruthy();
    const completion = logs.find((line) => line.msg === 'request completed');
    expect(completion).toMatchObject({ status: 503, path: '/users/1', reqId: res.headers['x-request-id'] });
  });

  test('answers a client that prefers JSON with the status as JSON', async () => {
    const { app } = guardedApp(fakeReadings({ eventLoopDelayMs: 500 }));
    const res = await request(app).get('/users/1').set('Accept', 'application/json');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('3');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ status: 503 });
  });

  test('keeps /healthz up, and /readyz says it is overloaded while saturated and ready once it is not', async () => {
    const readings = fakeReadings({ eventLoopDelayMs: 250 });
    const { app } = guardedApp(readings);
    const health = await request(app).get('/healthz');
    expect(health.status).toBe(200);
    expect(health.text).toBe('ok\n');
    const busy = await request(app).get('/readyz');
    expect(busy.status).toBe(503);
    expect(busy.text).toBe('overloaded: event_loop_delay\n');
    readings.set({ eventLoopDelayMs: 0 });
    const ready = await request(app).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.text).toBe('ok\n');
    expect((await request(app).get('/users/1')).status).toBe(200);
  });

  test('lets built files through while saturated, so a page already answered gets its scripts', async () => {
    const { routes, assets } = asHydrating(unitRoutes());
    const { app } = buildApp(routes, { assets, overload: { ...LIMITS, readings: fakeReadings({ eventLoopDelayMs: 500 }), sampleIntervalMs: 0, delayNeedsInFlight: 0 } });
    const file = await request(app).get('/assets/fixture.js');
    expect(file.status).not.toBe(503);
    expect(file.headers['retry-after']).toBeUndefined();
    await request(app).get('/users/1').expect(503);
  });

  test('takes a late event loop for overload only with requests in flight: one long turn of a starting process is not', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const routes: PageRouteDefinition[] = [...unitRoutes(), { path: '/held', component: () => null, load: async () => held.then(() => ({})) }];
    const { app } = guardedApp(fakeReadings({ eventLoopDelayMs: 400 }), { routes, delayNeedsInFlight: 2 });
    // None in flight, then one: admitted however late the loop.
    const first = request(app)
      .get('/held')
      .then((res) => res.status);
    await delay(50);
    const second = request(app)
      .get('/held')
      .then((res) => res.status);
    await delay(50);
    // Two in flight: the late loop now refuses.
    await request(app).get('/users/1').expect(503);
    release();
    expect(await Promise.all([first, second])).toEqual([200, 200]);
  });

  test.each([
    ['heap_used', { maxHeapUsedBytes: 1_000 }, { heapUsedBytes: 1_001 }],
    ['rss', { maxRssBytes: 1_000 }, { rssBytes: 1_001 }],
  ] as const)('refuses past its %s limit, and a limit of 0 is not checked', async (reason, limit, reading) => {
    const over = guardedApp(fakeReadings(reading), { limits: { ...LIMITS, ...limit } });
    await request(over.app).get('/users/1').expect(503);
    expect(overloadLines(over.logs)[0]).toMatchObject({ reason, refused: 1 });
    const unchecked = guardedApp(fakeReadings({ heapUsedBytes: 1e12, rssBytes: 1e12, eventLoopDelayMs: 1e6 }), {
      limits: { ...LIMITS, maxEventLoopDelayMs: 0 },
    });
    await request(unchecked.app).get('/users/1').expect(200);
  });

  test('refuses past the requests in flight, and admits again once one is answered', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const routes: PageRouteDefinition[] = [...unitRoutes(), { path: '/held', component: () => null, load: async () => held.then(() => ({})) }];
    const { app, logs } = guardedApp(fakeReadings(), { limits: { ...LIMITS, maxInFlight: 1 }, routes });
    const first = request(app)
      .get('/held')
      .then((res) => res.status);
    // The first is admitted and waits in its load.
    await delay(50);
    const second = await request(app).get('/users/1');
    expect(second.status).toBe(503);
    expect(overloadLines(logs)[0]).toMatchObject({ reason: 'in_flight', inFlight: 1 });
    release();
    expect(await first).toBe(200);
    expect((await request(app).get('/users/1')).status).toBe(200);
  });

  test('writes one warn line per interval, with the refusals since the last and the readings', async () => {
    const readings = fakeReadings({ eventLoopDelayMs: 180, heapUsedBytes: 5_000, rssBytes: 9_000 });
    const { app, logs } = guardedApp(readings, { logIntervalMs: 300 });
    for (let i = 0; i < 5; i += 1) await request(app).get('/users/1').expect(503);
    const first = overloadLines(logs);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      level: LEVEL.warn,
      refused: 1,
      reasons: { event_loop_delay: 1 },
      reason: 'event_loop_delay',
      eventLoopDelayMs: 180,
      heapUsedBytes: 5_000,
      rssBytes: 9_000,
      inFlight: 0,
    });
    await waitFor(() => overloadLines(logs).length === 2, 2_000, 'the interval’s line');
    expect(overloadLines(logs)[1]).toMatchObject({ level: LEVEL.warn, refused: 4, reasons: { event_loop_delay: 4 } });
    await delay(400);
    // Nothing refused since: no line.
    expect(overloadLines(logs)).toHaveLength(2);
  });

  test('counts each refusal in http_overload_refusals_total by reason', async () => {
    const metrics = await createMetrics({ processMetrics: false });
    const readings = fakeReadings({ eventLoopDelayMs: 150 });
    const { app } = buildApp(unitRoutes(), { metrics, overload: { ...LIMITS, readings, sampleIntervalMs: 0, delayNeedsInFlight: 0 } });
    await request(app).get('/users/1').expect(503);
    await request(app).get('/').expect(503);
    await request(app).get('/healthz').expect(200);
    const text = await metrics.registry.metrics();
    expect(text).toContain('http_overload_refusals_total{reason="event_loop_delay"} 2');
    expect(text).toContain('http_requests_total{route="unmatched",method="GET",status="503"} 2');
  });
});

describe('the process readings', () => {
  test('see a turn of the event loop that is still running: the delay is how late the ticker is now', async () => {
    const readings = processReadings();
    try {
      await delay(30);
      const end = performance.now() + 150;
      while (performance.now() < end) {
        // A turn of 150 ms: the ticker cannot run.
      }
      expect(readings.read().eventLoopDelayMs).toBeGreaterThanOrEqual(100);
      // Then it falls once the ticker runs again: within a few ticks on an idle machine, later
      // on a loaded one, where the process itself may wait 100 ms for a core (the bound is 2 s).
      const turnEnded = performance.now();
      do {
        await delay(TICK_MS * 3);
      } while (readings.read().eventLoopDelayMs >= 100 && performance.now() - turnEnded < 2000);
      expect(readings.read().eventLoopDelayMs).toBeLessThan(100);
    } finally {
      readings.stop();
    }
  });
});
