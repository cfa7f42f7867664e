import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createLogger } from '../../server/observability/logger.ts';
import { buildApp, LEVEL } from '../support/build-app.ts';
import { fixtureRoutes } from '../support/pages.tsx';

describe('request ids', () => {
  const { app, logs } = buildApp(fixtureRoutes());

  test.each(['abc-123', 'A.b_C-9', 'x'.repeat(128)])('keeps a valid incoming X-Request-Id (%s) and echoes it', async (id) => {
    const res = await request(app).get('/users/1').set('X-Request-Id', id);
    expect(res.headers['x-request-id']).toBe(id);
    expect(logs.at(-1)).toMatchObject({ reqId: id, msg: 'request completed' });
  });

  test.each([
    ['too long', 'x'.repeat(129)],
    ['a space', 'abc def'],
    ['markup', '<script>'],
    ['a slash', 'a/b'],
    ['a newline escape', 'a%0Ab'],
    ['non-ASCII', 'ïd'],
  ])('replaces an id with %s by a new one', async (_why, id) => {
    const res = await request(app).get('/missing').set('X-Request-Id', id);
    const echoed = String(res.headers['x-request-id']);
    expect(echoed).not.toBe(id);
    expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
    expect(logs.at(-1)).toMatchObject({ reqId: echoed });
  });

  test('gives each request without one a different id', async () => {
    const a = await request(app).get('/missing');
    const b = await request(app).get('/missing');
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  test('puts the id on the error line as well as the completion line', async () => {
    const { app: failing, logs: failingLogs } = buildApp(fixtureRoutes());
    await request(failing).get('/throw-in-load').set('X-Request-Id', 'trace-me');
    expect(failingLogs.map((line) => [line.level, line.reqId])).toEqual([
      [LEVEL.error, 'trace-me'],
      [LEVEL.info, 'trace-me'],
    ]);
  });
});

describe('the completion line', () => {
  test('has method, path, route pattern, status and duration, one per request', async () => {
    const { app, logs } = buildApp(fixtureRoutes());
    await request(app).get('/users/42?tab=1');
    await request(app).post('/users/42');
    await request(app).get('/missing');
    expect(logs).toHaveLength(3);
    expect(logs[0]).toMatchObject({ level: LEVEL.info, msg: 'request completed', method: 'GET', path: '/users/42', route: '/users/:id', status: 200 });
    expect(logs[1]).toMatchObject({ method: 'POST', path: '/users/42', status: 405 });
    expect(logs[2]).toMatchObject({ method: 'GET', path: '/missing', route: null, status: 404 });
    for (const line of logs) expect(typeof line.duration).toBe('number');
  });

  test('logs health probes at debug, not info', async () => {
    const { app, logs } = buildApp(fixtureRoutes());
    await request(app).get('/healthz').expect(200);
    await request(app).get('/readyz').expect(200);
    expect(logs.map((line) => line.level)).toEqual([LEVEL.debug, LEVEL.debug]);
  });

  test('never contains cookies, authorization or set-cookie values', async () => {
    const { app, logs } = buildApp([
      ...fixtureRoutes(),
      {
        path: '/sets-cookie',
        component: () => null,
        load: () => {
          throw new Error('fails while secrets are around');
        },
      },
    ]);
    for (const path of ['/users/1', '/missing', '/throw-in-load', '/sets-cookie']) {
      await request(app)
        .get(path)
        .set('Cookie', 'session=COOKIE-SECRET')
        .set('Authorization', 'Bearer AUTH-SECRET')
        .set('Proxy-Authorization', 'Basic PROXY-SECRET');
    }
    const text = logs.map((line) => JSON.stringify(line)).join('\n');
    expect(logs.length).toBeGreaterThanOrEqual(6);
    expect(text).not.toContain('COOKIE-SECRET');
    expect(text).not.toContain('AUTH-SECRET');
    expect(text).not.toContain('PROXY-SECRET');
  });

  test('redacts secrets even from a line that logs raw headers', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
    logger.info({
      req: { headers: { cookie: 'COOKIE-SECRET', authorization: 'AUTH-SECRET', accept: 'text/html' } },
      res: { headers: { 'set-cookie': 'SET-COOKIE-SECRET' } },
      headers: { 'proxy-authorization': 'PROXY-SECRET' },
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/SECRET/);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ req: { headers: { accept: 'text/html' } } });
  });
});
