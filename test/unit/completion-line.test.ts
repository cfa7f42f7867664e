import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';

/** An app logging through a logger of the app's own, with a mixin and a level formatter, as apps add a trace id. */
function appWithOwnLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    {
      level: 'debug',
      mixin: () => ({ traceId: 'trace-from-mixin' }),
      formatters: { level: (label) => ({ severity: label.toUpperCase() }) },
    },
    { write: (line: string) => void lines.push(JSON.parse(line)) },
  );
  return { app: createApp({ app: { routes: [] }, logger }), lines };
}

describe('the completion line goes through the logger it is given', () => {
  test("carries the logger's mixin fields and its level formatter, like every other line", async () => {
    const { app, lines } = appWithOwnLogger();
    const res = await request(app).get('/no/such/page');
    expect(res.status).toBe(404);
    const completion = lines.find((line) => line.msg === 'request completed');
    expect(completion).toMatchObject({
      severity: 'INFO',
      traceId: 'trace-from-mixin',
      reqId: res.headers['x-request-id'],
      method: 'GET',
      path: '/no/such/page',
      route: null,
      status: 404,
    });
    expect(completion).not.toHaveProperty('level');
  });

  test("a probe's line is written at debug, through the same formatter", async () => {
    const { app, lines } = appWithOwnLogger();
    await request(app).get('/healthz').expect(200);
    expect(lines.find((line) => line.msg === 'request completed')).toMatchObject({ severity: 'DEBUG', traceId: 'trace-from-mixin', path: '/healthz' });
  });
});
