import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { CLIENT_ERRORS_ENDPOINT, TELEMETRY_BODY_LIMIT_BYTES, VITALS_ENDPOINT } from '../../shared/protocol/telemetry.ts';
import { createMetrics } from '../../server/observability/metrics.ts';
import { asHydrating, buildApp, errorLines, LEVEL } from '../support/build-app.ts';
import { pageDataOf } from '../support/page-data-scripts.ts';
import { unitRoutes } from '../support/pages.tsx';

const VITAL = { name: 'LCP', value: 1234.5, rating: 'good', id: 'v5-1700000000000-123', route: '/users/:id', requestId: 'req-1' };

async function withTelemetry(ratePerMinute = 100) {
  const metrics = await createMetrics({ processMetrics: false });
  return { metrics, ...buildApp(unitRoutes(), { telemetry: { enabled: true, ratePerMinute }, metrics }) };
}

describe('the web vitals endpoint', () => {
  test('is absent unless switched on', async () => {
    const { app } = buildApp(unitRoutes());
    await request(app).post(VITALS_ENDPOINT).send(VITAL).expect(404);
  });

  test('accepts a valid report with 204, logs it and feeds the histogram', async () => {
    const { app, logs, metrics } = await withTelemetry();
    const res = await request(app).post(VITALS_ENDPOINT).set('Content-Type', 'application/json').send(JSON.stringify(VITAL));
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(logs.find((line) => line.msg === 'web vital')).toMatchObject({ level: LEVEL.info, vital: VITAL });
    const series = await metrics.registry.getSingleMetricAsString('web_vitals');
    expect(series).toContain('web_vitals_count{metric="LCP",route="/users/:id",rating="good"} 1');
  });

  test('accepts the text/plain body sendBeacon sends for a string', async () => {
    const { app } = await withTelemetry();
    await request(app).post(VITALS_ENDPOINT).set('Content-Type', 'text/plain;charset=UTF-8').send(JSON.stringify(VITAL)).expect(204);
  });

  test.each([
    ['an unknown metric', { ...VITAL, name: 'FID' }],
    ['a non-finite value', { ...VITAL, value: '1e999' }],
    ['a negative value', { ...VITAL, value: -1 }],
    ['an absurd value', { ...VITAL, value: 1e12 }],
    ['a CLS out of range', { ...VITAL, name: 'CLS', value: 1000 }],
    ['an unknown rating', { ...VITAL, rating: 'great' }],
    ['an unknown route', { ...VITAL, route: '/not/a/route' }],
    ['a raw path instead of a pattern', { ...VITAL, route: '/users/1' }],
    ['an extra field', { ...VITAL, extra: 1 }],
    ['a long id', { ...VITAL, id: 'x'.repeat(500) }],
    ['a bad request id', { ...VITAL, requestId: '<script>' }],
    ['an array', [VITAL]],
    ['null', null],
  ])('rejects %s with 400 and records nothing', async (_case, body) => {
    const { app, logs, metrics } = await withTelemetry();
    const res = await request(app).post(VITALS_ENDPOINT).set('Content-Type', 'application/json').send(JSON.stringify(body));
    expect(res.status).toBe(400);
    expect(logs.some((line) => line.msg === 'web vital')).toBe(false);
    expect(await metrics.registry.getSingleMetricAsString('web_vitals')).not.toContain('web_vitals_count{');
    expect(errorLines(logs)).toEqual([]);
  });

  test('rejects malformed JSON with 400', async () => {
    const { app, logs } = await withTelemetry();
    const res = await request(app).post(VITALS_ENDPOINT).set('Content-Type', 'application/json').send('{"name":');
    expect(res.status).toBe(400);
    expect(res.text).not.toMatch(/SyntaxError|at .*:\d+/);
    expect(errorLines(logs)).toEqual([]);
  });

  /** A valid vital padded with trailing blanks (still valid JSON) to exactly `bytes`. */
  function vitalOfSize(bytes: number): string {
    const json = JSON.stringify(VITAL);
    return json + ' '.repeat(bytes - json.length);
  }

  test('rejects a body one byte over the 4 KiB cap with 413', async () => {
    const { app, logs } = await withTelemetry();
    const body = vitalOfSize(TELEMETRY_BODY_LIMIT_BYTES + 1);
    expect(Buffer.byteLength(body)).toBe(4_097);
    const res = await request(app).post(VITALS_ENDPOINT).set('Content-Type', 'application/json').send(body);
    expect(res.status).toBe(413);
    expect(res.text).toContain('<title>413: Payload Too Large.</title>');
    expect(errorLines(logs)).toEqual([]);
  });

  test('accepts a body of exactly 4 KiB', async () => {
    const { app } = await withTelemetry();
    const body = vitalOfSize(TELEMETRY_BODY_LIMIT_BYTES);
    expect(Buffer.byteLength(body)).toBe(4_096);
    await request(app).post(VITALS_ENDPOINT).set('Content-Type', 'application/json').send(body).expect(204);
  });

  test('rejects other content types with 415', async () => {
    const { app } = await withTelemetry();
    await request(app).post(VITALS_ENDPOINT).set('Content-Type', 'application/x-www-form-urlencoded').send('name=LCP').expect(415);
  });

  test('answers other methods with 405 and Allow: POST', async () => {
    const { app } = await withTelemetry();
    const res = await request(app).get(VITALS_ENDPOINT);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });

  test('limits each client address, answering 429 with Retry-After', async () => {
    const { app } = await withTelemetry(3);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await request(app).post(VITALS_ENDPOINT).set('Content-Type', 'application/json').send(JSON.stringify(VITAL));
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([204, 204, 204, 429, 429]);
  });
});

describe('client error reports', () => {
  const REPORT = {
    kind: 'uncaught',
    name: 'TypeError',
    message: 'x is not a function',
    stack: 'TypeError: x is not a function\n    at Page (/assets/home.js:1:2)',
    digest: 'AbC123_-xyz',
    route: '/users/:id',
    requestId: 'page-req-7',
  };

  test('land in the log with the digest and the page request id, at warn', async () => {
    const { app, logs } = await withTelemetry();
    await request(app).post(CLIENT_ERRORS_ENDPOINT).set('Content-Type', 'application/json').send(JSON.stringify(REPORT)).expect(204);
    const line = logs.find((entry) => entry.msg === 'client error report');
    expect(line).toMatchObject({ level: LEVEL.warn, digest: 'AbC123_-xyz', pageRequestId: 'page-req-7', clientError: REPORT });
  });

  test.each([
    ['an unknown kind', { ...REPORT, kind: 'fatal' }],
    ['a huge message', { ...REPORT, message: 'm'.repeat(2_000) }],
    ['a digest with markup', { ...REPORT, digest: '<b>' }],
    ['an unknown route', { ...REPORT, route: '/x' }],
  ])('reject %s with 400', async (_case, body) => {
    const { app, logs } = await withTelemetry();
    await request(app).post(CLIENT_ERRORS_ENDPOINT).set('Content-Type', 'application/json').send(JSON.stringify(body)).expect(400);
    expect(logs.some((line) => line.msg === 'client error report')).toBe(false);
  });
});

describe('pages with telemetry on', () => {
  test('embed the route pattern and request id for the client', async () => {
    const { routes, assets } = asHydrating(unitRoutes());
    // Loopback (supertest) as the trusted proxy, so its X-Request-Id is believed.
    const { app } = buildApp(routes, { telemetry: { enabled: true }, trustProxy: 'loopback', assets });
    const res = await request(app).get('/users/5').set('X-Request-Id', 'rid-5');
    expect(pageDataOf(res.text)).toMatchObject({ telemetry: { route: '/users/:id', requestId: 'rid-5' } });
  });
});
