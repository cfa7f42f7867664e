import { hostname } from 'node:os';
import express from 'express';
import request from 'supertest';
import { describe, expect, test, vi } from 'vitest';
import { createApp } from '../../server/app.ts';
import { createHttpLogger } from '../../server/observability/http-logger.ts';
import { createLogger, REDACTED_PATHS } from '../../server/observability/logger.ts';
import { buildApp, LEVEL } from '../support/build-app.ts';
import { closeTestServers, listenForTest } from '../support/http-client.ts';
import { openRawConnection } from '../support/raw-http.ts';
import { unitRoutes } from '../support/pages.tsx';

describe('request ids', () => {
  // supertest connects from loopback: here the peer is a trusted proxy.
  const { app, logs } = buildApp(unitRoutes(), { trustProxy: 'loopback' });

  test.each(['abc-123', 'A.b_C-9', 'x'.repeat(128)])('keeps a valid incoming X-Request-Id (%s) from a trusted proxy and echoes it', async (id) => {
    const res = await request(app).get('/users/1').set('X-Request-Id', id);
    expect(res.headers['x-request-id']).toBe(id);
    expect(logs.at(-1)).toMatchObject({ reqId: id, msg: 'request completed' });
  });

  test.each([
    ['no proxy is trusted (the default)', undefined],
    ['TRUST_PROXY=false', false],
    ['the peer is not among the trusted addresses', ['10.0.0.0/8']],
  ] as const)('replaces an incoming X-Request-Id when %s: any client could choose it', async (_why, trustProxy) => {
    const { app: direct, logs: directLogs } = buildApp(unitRoutes(), trustProxy === undefined ? {} : { trustProxy });
    const res = await request(direct).get('/users/1').set('X-Request-Id', 'chosen-by-the-client');
    const echoed = String(res.headers['x-request-id']);
    expect(echoed).not.toBe('chosen-by-the-client');
    expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
    expect(directLogs.at(-1)).toMatchObject({ reqId: echoed, msg: 'request completed' });
  });

  test('believes a hop count as Express does: with TRUST_PROXY=1 the peer is the trusted proxy', async () => {
    const { app: oneHop } = buildApp(unitRoutes(), { trustProxy: 1 });
    const res = await request(oneHop).get('/users/1').set('X-Request-Id', 'from-the-proxy');
    expect(res.headers['x-request-id']).toBe('from-the-proxy');
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
    const { app: failing, logs: failingLogs } = buildApp(unitRoutes(), { trustProxy: 'loopback' });
    await request(failing).get('/throw-in-load').set('X-Request-Id', 'trace-me');
    expect(failingLogs.map((line) => [line.level, line.reqId])).toEqual([
      [LEVEL.error, 'trace-me'],
      [LEVEL.info, 'trace-me'],
    ]);
  });
});

describe('the completion line', () => {
  test('has method, path, route pattern, status and duration, one per request', async () => {
    const { app, logs } = buildApp(unitRoutes());
    await request(app).get('/users/42?tab=1');
    await request(app).post('/users/42');
    await request(app).get('/missing');
    expect(logs).toHaveLength(3);
    expect(logs[0]).toMatchObject({ level: LEVEL.info, msg: 'request completed', method: 'GET', path: '/users/42', route: '/users/:id', status: 200 });
    expect(logs[1]).toMatchObject({ method: 'POST', path: '/users/42', status: 405 });
    expect(logs[2]).toMatchObject({ method: 'GET', path: '/missing', route: null, status: 404 });
    for (const line of logs) expect(typeof line.duration).toBe('number');
  });

  /** An app whose log lines are kept as written, unparsed. */
  function rawLogging(level: 'debug' | 'info' = 'debug') {
    const lines: string[] = [];
    const logger = createLogger({ level, destination: { write: (line: string) => void lines.push(line) } });
    return { app: createApp({ app: { routes: unitRoutes() }, logger }), lines, logger };
  }

  test('is exactly these fields, in this order, for a page, a 404, a 405, a 400 and a 500', async () => {
    const { app, lines } = rawLogging();
    const answers = [
      await request(app).get('/users/42?token=SECRET-QUERY'),
      await request(app).get('/no/such/page'),
      await request(app).post('/users/1'),
      await request(app).get('/%zz'),
      await request(app).get('/throw-in-load'),
    ];
    const completions = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request completed');
    expect(completions).toHaveLength(answers.length);
    completions.forEach((line, i) => {
      const res = answers[i];
      expect(Object.keys(line)).toEqual(['level', 'time', 'pid', 'hostname', 'reqId', 'method', 'path', 'route', 'status', 'duration', 'ip', 'protocol', 'msg']);
      expect(line.level).toBe(LEVEL.info);
      expect(line.time).toEqual(expect.any(Number));
      expect(line.pid).toBe(process.pid);
      expect(line.hostname).toBe(hostname());
      expect(line.reqId).toBe(res?.headers['x-request-id']);
      expect(line.status).toBe(res?.status);
      expect(Number.isInteger(line.duration) && Number(line.duration) >= 0).toBe(true);
      expect(line.ip).toMatch(/127\.0\.0\.1$/);
      expect(line.protocol).toBe('http');
    });
    expect(completions.map((line) => [line.method, line.path, line.route, line.status])).toEqual([
      ['GET', '/users/42', '/users/:id', 200],
      ['GET', '/no/such/page', null, 404],
      ['POST', '/users/1', '/users/:id', 405],
      ['GET', '/%zz', null, 400],
      ['GET', '/throw-in-load', '/throw-in-load', 500],
    ]);
    expect(lines.join('')).not.toContain('SECRET-QUERY');
  });

  test('logs the path alone: never the credentials of an absolute-form target, its host, a query or a fragment', async () => {
    const { app, lines } = rawLogging();
    const { port } = await listenForTest(app);
    const targets = [
      'http://SECRET-USER:SECRET-PASS@localhost/users/7?token=SECRET-QUERY',
      'http://SECRET-USER@localhost?SECRET-QUERY',
      '/users/8#SECRET-FRAGMENT',
      'http://localhost',
    ];
    for (const target of targets) {
      const connection = await openRawConnection(port);
      connection.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      await connection.closedWithin(2_000);
      connection.destroy();
    }
    const completions = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request completed');
    expect(completions.map((line) => [line.path, line.status])).toEqual([
      ['/users/7', 200],
      ['/', 200],
      ['/users/8', 200],
      ['/', 200],
    ]);
    expect(lines.join('')).not.toContain('SECRET');
    await closeTestServers();
  });

  test('is one line per request, written once even though the response both finishes and closes', async () => {
    const { app, lines } = rawLogging();
    await request(app).get('/no/such/page');
    await request(app).get('/users/1');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines.filter((line) => line.includes('"msg":"request completed"'))).toHaveLength(2);
  });

  test('makes the child logger of req.log only when something logs about the request', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
    const app = express();
    app.use(createHttpLogger(logger));
    // pino's child loggers inherit `child` from the logger they were made from.
    const child = vi.spyOn(logger, 'child');
    app.get('/quiet', (_req, res) => void res.end('quiet'));
    app.get('/chatty', (req, res) => {
      req.log.info({ step: 1 }, 'first');
      req.log.warn({ step: 2 }, 'second');
      res.end('chatty');
    });
    await request(app).get('/quiet');
    expect(child).not.toHaveBeenCalled();
    await request(app).get('/chatty');
    expect(child).toHaveBeenCalledTimes(1);
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const id = parsed.at(-1)?.reqId;
    expect(id).toEqual(expect.any(String));
    expect(parsed.map((line) => [line.msg, line.reqId])).toEqual([
      ['request completed', expect.not.stringMatching(String(id))],
      ['first', id],
      ['second', id],
      ['request completed', id],
    ]);
  });

  test('lines through req.log drop raw request and response objects', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
    const app = express();
    app.use(createHttpLogger(logger));
    app.get('/raw', (req, res) => {
      req.log.info({ req, res, kept: 'visible' }, 'raw objects');
      res.end('ok');
    });
    await request(app).get('/raw').set('Cookie', 'session=RAW-COOKIE-SECRET');
    const line = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    expect(line).toMatchObject({ msg: 'raw objects', kept: 'visible' });
    expect(line).not.toHaveProperty('req');
    expect(line).not.toHaveProperty('res');
    expect(lines.join('')).not.toContain('RAW-COOKIE-SECRET');
  });

  test('skips probe lines without building them when debug is off', async () => {
    const { app, lines } = rawLogging('info');
    await request(app).get('/healthz').expect(200);
    await request(app).get('/no/such/page');
    expect(lines.map((line) => (JSON.parse(line) as Record<string, unknown>).path)).toEqual(['/no/such/page']);
  });

  test('logs health probes at debug, not info', async () => {
    const { app, logs } = buildApp(unitRoutes());
    await request(app).get('/healthz').expect(200);
    await request(app).get('/readyz').expect(200);
    expect(logs.map((line) => line.level)).toEqual([LEVEL.debug, LEVEL.debug]);
  });

  test('never contains cookies, authorization or set-cookie values', async () => {
    const { app, logs } = buildApp([
      ...unitRoutes(),
      {
        path: '/sets-cookie',
        component: () => null,
        load: () => {
          throw new Error('fails while secrets are around');
        },
      },
    ]);
    for (const path of ['/users/1', '/missing', '/throw-in-load', '/sets-cookie']) {
      await request(app).get(path).set('Cookie', 'session=COOKIE-SECRET').set('Authorization', 'Bearer AUTH-SECRET').set('Proxy-Authorization', 'Basic PROXY-SECRET');
    }
    const text = logs.map((line) => JSON.stringify(line)).join('\n');
    expect(logs.length).toBeGreaterThanOrEqual(6);
    expect(text).not.toContain('COOKIE-SECRET');
    expect(text).not.toContain('AUTH-SECRET');
    expect(text).not.toContain('PROXY-SECRET');
  });

  /**
   * A raw request or response may be logged as `req`/`res` or as its bare
   * `headers`: REDACTED_PATHS spells each secret both ways, so each placement is checked.
   */
  test.each([
    ['cookie', 'req'],
    ['authorization', 'req'],
    ['proxy-authorization', 'req'],
    ['set-cookie', 'res'],
  ] as const)('redacts %s under %s.headers and under bare headers', (header, parent) => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
    logger.info({ [parent]: { headers: { [header]: `NESTED-${header}-SECRET`, accept: 'text/html' } } }, 'nested');
    logger.info({ headers: { [header]: `BARE-${header}-SECRET`, accept: 'text/html' } }, 'bare');
    expect(lines).toHaveLength(2);
    const [nested, bare] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(nested).toMatchObject({ msg: 'nested', [parent]: { headers: { accept: 'text/html' } } });
    expect(bare).toMatchObject({ msg: 'bare', headers: { accept: 'text/html' } });
    expect(lines.join('\n')).not.toContain('SECRET');
  });

  /** `req.headers["proxy-authorization"]` → ['req', 'headers', 'proxy-authorization']. */
  function segments(path: string): string[] {
    return [...path.matchAll(/([^.[\]"]+)|\["([^"]+)"\]/g)].map((match) => match[2] ?? match[1] ?? '');
  }

  test.each(REDACTED_PATHS)('removes the value at %s (as its dot or bracket spelling names it) and nothing beside it', (path) => {
    const keys = segments(path);
    expect(keys.join('.')).toBe(path.replace(/\["([^"]+)"\]/g, '.$1'));
    const leaf = keys.at(-1) ?? '';
    let logged: Record<string, unknown> = { [leaf]: 'PATH-SECRET', kept: 'visible' };
    for (const key of keys.slice(0, -1).reverse()) logged = { [key]: logged };
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
    logger.info(logged, 'raw');
    expect(lines[0]).not.toContain('PATH-SECRET');
    expect(lines[0]).toContain('"kept":"visible"');
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
