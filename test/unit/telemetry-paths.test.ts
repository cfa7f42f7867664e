import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { CLIENT_ERRORS_ENDPOINT, VITALS_ENDPOINT } from '../../shared/protocol/telemetry.ts';
import { buildApp } from '../support/build-app.ts';
import { unitRoutes } from '../support/pages.tsx';

/**
 * Only requests under the endpoints' folder reach the telemetry router (the rest skip it), and
 * that folder is matched as Express matches routes: without regard to case, with or without a
 * trailing slash. Nothing outside it is answered as telemetry.
 */

const VITAL = { name: 'LCP', value: 1234.5, rating: 'good', id: 'v5-1700000000000-123', route: '/users/:id', requestId: 'req-1' };

function withTelemetry() {
  return buildApp(unitRoutes(), { telemetry: { enabled: true, ratePerMinute: 100 } });
}

describe('the telemetry endpoints, spelled otherwise', () => {
  test('in capitals, and with a trailing slash, they are the same endpoints', async () => {
    const { app } = withTelemetry();
    await request(app).post(VITALS_ENDPOINT.toUpperCase()).set('Content-Type', 'application/json').send(JSON.stringify(VITAL)).expect(204);
    await request(app).post(`${VITALS_ENDPOINT}/`).set('Content-Type', 'application/json').send(JSON.stringify(VITAL)).expect(204);
    const wrongMethod = await request(app).get(CLIENT_ERRORS_ENDPOINT.replace('errors', 'ERRORS'));
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe('POST');
  });

  test('a neighbouring path is no endpoint: the 404 page, as for any unknown address', async () => {
    const { app } = withTelemetry();
    for (const path of ['/_telemetryx/vitals', '/_telemetry', '/x/_telemetry/vitals']) {
      const res = await request(app).post(path).set('Content-Type', 'application/json').send(JSON.stringify(VITAL));
      expect(res.status, path).toBe(404);
    }
  });
});
