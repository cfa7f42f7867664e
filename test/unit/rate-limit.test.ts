import express, { type ErrorRequestHandler, type Express } from 'express';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { isHttpError } from '../../shared/api/http-error.ts';
import { createRateLimit, type RateLimitOptions } from '../../server/security/rate-limit.ts';

/**
 * The limiter on its own, in front of one route, with a clock the test moves: the telemetry
 * endpoints' tests (proxy-headers.test.ts) hold its keys, these its window, its `Retry-After`
 * and its bound on memory. Each client is an `X-Forwarded-For` address (`trust proxy` on).
 */
function limitedApp(options: Omit<RateLimitOptions, 'now'>): { readonly app: Express; readonly clock: { time: number } } {
  const clock = { time: 0 };
  const app = express();
  app.set('trust proxy', true);
  app.use(createRateLimit({ ...options, now: () => clock.time }));
  app.get('/', (_req, res) => void res.send('ok'));
  const answerError: ErrorRequestHandler = (error, _req, res, _next) => void res.status(isHttpError(error) ? error.status : 500).send('refused');
  app.use(answerError);
  return { app, clock };
}

function from(app: Express, address: string) {
  return request(app).get('/').set('X-Forwarded-For', address);
}

describe('the rate limit', () => {
  test('refuses past the limit with 429 and the whole seconds left of the window as Retry-After', async () => {
    const { app, clock } = limitedApp({ limit: 2, windowMs: 60_000 });
    expect((await from(app, '203.0.113.1')).status).toBe(200);
    clock.time = 1_500;
    expect((await from(app, '203.0.113.1')).status).toBe(200);
    const refused = await from(app, '203.0.113.1');
    expect(refused.status).toBe(429);
    // 58.5 seconds left: rounded up, never down to a time the client would still be refused.
    expect(refused.headers['retry-after']).toBe('59');
    expect((await from(app, '203.0.113.2')).status).toBe(200);
  });

  test('opens a new window exactly windowMs after the first request of the last one', async () => {
    const { app, clock } = limitedApp({ limit: 1, windowMs: 1_000 });
    clock.time = 5_000;
    expect((await from(app, '203.0.113.1')).status).toBe(200);
    clock.time = 5_999;
    const refused = await from(app, '203.0.113.1');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    clock.time = 6_000;
    expect((await from(app, '203.0.113.1')).status).toBe(200);
    // The new window started at 6,000 and counts afresh.
    clock.time = 6_999;
    expect((await from(app, '203.0.113.1')).status).toBe(429);
  });

  test('holds at most maxClients windows: a new client lets the oldest go, and a renewed window counts as new', async () => {
    const { app, clock } = limitedApp({ limit: 1, windowMs: 1_000, maxClients: 3 });
    expect((await from(app, '203.0.113.1')).status).toBe(200);
    clock.time = 500;
    expect((await from(app, '203.0.113.2')).status).toBe(200);
    clock.time = 1_000;
    // .1's window ends and a new one starts: it is now the newest, .2's the oldest.
    expect((await from(app, '203.0.113.1')).status).toBe(200);
    expect((await from(app, '203.0.113.3')).status).toBe(200);
    // A fourth client: .2's window goes, though it is not over, so .2 starts afresh (and .1's goes in its turn).
    expect((await from(app, '203.0.113.4')).status).toBe(200);
    expect((await from(app, '203.0.113.2')).status).toBe(200);
    // .3 and .4 were kept, still refused in their window.
    expect((await from(app, '203.0.113.3')).status).toBe(429);
    expect((await from(app, '203.0.113.4')).status).toBe(429);
  });

  test('with room for one client only, each new client takes the place of the last', async () => {
    const { app } = limitedApp({ limit: 1, windowMs: 1_000, maxClients: 1 });
    expect((await from(app, '203.0.113.1')).status).toBe(200);
    expect((await from(app, '203.0.113.1')).status).toBe(429);
    expect((await from(app, '203.0.113.2')).status).toBe(200);
    expect((await from(app, '203.0.113.1')).status).toBe(200);
  });
});
