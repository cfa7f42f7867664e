import request from 'supertest';
import { describe, expect, test, vi } from 'vitest';
import { buildApp, errorLines, LEVEL, type LogLine } from '../support/build-app.ts';
import { unitRoutes } from '../support/pages.tsx';

const DIGEST_ON_PAGE = /Digest: ([A-Za-z0-9_-]+)/;

function digestOnPage(html: string): string {
  const match = DIGEST_ON_PAGE.exec(html);
  if (match?.[1] === undefined) throw new Error(`no digest on the page:\n${html}`);
  return match[1];
}

function only<T>(items: readonly T[]): T {
  expect(items).toHaveLength(1);
  const [item] = items;
  if (item === undefined) throw new Error('expected one item');
  return item;
}

describe('server-side exceptions', () => {
  test.each([
    ['load', '/throw-in-load', 'RangeError', 'load exploded: SECRET-LOAD-DETAIL', '/throw-in-load'],
    ['the shell render', '/throw-in-render', 'TypeError', 'render exploded: SECRET-RENDER-DETAIL', '/throw-in-render'],
  ])('an exception in %s gives the 500 page with the digest of its one error log line', async (_where, path, name, message, route) => {
    // Loopback (supertest) as the trusted proxy, so its X-Request-Id is believed.
    const { app, logs } = buildApp(unitRoutes(), { trustProxy: 'loopback' });
    const res = await request(app).get(path).set('Host', 'shop.example.com').set('X-Request-Id', 'req-123');

    expect(res.status).toBe(500);
    expect(res.text).toContain('<title>500: Internal Server Error.</title>');
    expect(res.text).toContain('Application error: a server-side exception has occurred while loading shop.example.com (see the server logs for more information).');
    expect(res.text).toContain('<meta name="robots" content="noindex"/>');
    expect(res.text).not.toMatch(/<script/i);
    // A status page's policy: no nonce, no script (docs/security.md).
    expect(res.headers['content-security-policy']).not.toMatch(/nonce-/);
    expect(res.headers['content-security-policy']).toContain("script-src 'none';");

    const line = only(errorLines(logs));
    expect(line).toMatchObject({
      level: LEVEL.error,
      digest: digestOnPage(res.text),
      reqId: 'req-123',
      method: 'GET',
      path,
      route,
      err: { type: name, name, message, stack: expect.stringContaining(message) },
      fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
  });

  test('never shows the error message or stack to the visitor in production', async () => {
    const { app } = buildApp(unitRoutes());
    for (const path of ['/throw-in-load', '/throw-in-render']) {
      const res = await request(app).get(path);
      expect(res.text).not.toContain('SECRET');
      expect(res.text).not.toContain('exploded');
      expect(res.text).not.toMatch(/\bat .*\(.*:\d+:\d+\)/);
    }
  });

  test('shows message and stack below the generic text in development', async () => {
    const { app } = buildApp(unitRoutes(), { development: true });
    const res = await request(app).get('/throw-in-load');
    expect(res.status).toBe(500);
    expect(res.text).toContain('Application error: a server-side exception');
    expect(res.text).toContain('RangeError: load exploded: SECRET-LOAD-DETAIL');
  });

  test('gives every occurrence a new digest of at least 64 bits, with one stable fingerprint', async () => {
    const { app, logs } = buildApp(unitRoutes());
    const first = await request(app).get('/throw-in-load');
    const second = await request(app).get('/throw-in-load');
    const [a, b] = [digestOnPage(first.text), digestOnPage(second.text)];
    expect(a).not.toBe(b);
    // base64url: 6 bits a character.
    expect(a.length * 6).toBeGreaterThanOrEqual(64);
    const lines = errorLines(logs);
    expect(lines.map((line) => line.digest)).toEqual([a, b]);
    expect(lines[0]?.fingerprint).toBe(lines[1]?.fingerprint);
  });

  test('names the configured public origin on the error page, not the Host header', async () => {
    const { app } = buildApp(unitRoutes(), { publicOrigin: new URL('https://www.example.org') });
    const res = await request(app).get('/throw-in-load').set('Host', 'evil.example.net');
    expect(res.text).toContain('while loading www.example.org (see');
    expect(res.text).not.toContain('evil.example.net');
  });

  test('escapes the host it names', async () => {
    const { app } = buildApp(unitRoutes());
    const res = await request(app).get('/throw-in-load').set('Host', "a'b.example");
    expect(res.text).toContain('while loading a&#x27;b.example (see');
  });

  test('an exception in a Suspense boundary after the shell keeps 200 and streams the logged digest', async () => {
    const { app, logs } = buildApp(unitRoutes());
    const res = await request(app).get('/boundary-error');
    expect(res.status).toBe(200);
    expect(res.text).toContain('SHELL-HEADING');
    expect(res.text).not.toContain('SECRET');
    const line: LogLine = only(errorLines(logs));
    expect(line).toMatchObject({ route: '/boundary-error', err: { message: 'boundary exploded: SECRET-BOUNDARY-DETAIL' } });
    expect(typeof line.digest).toBe('string');
    // React writes the digest onDone returned into the boundary's client-render instruction.
    expect(res.text).toContain(String(line.digest));
  });
});

function ThrowsString(): never {
  // Deliberately not an Error: third-party code does this.
  throw 'a thrown string';
}

describe('errors that are not Error objects, or come too late for a status page', () => {
  const stringRoutes = [
    { path: '/string-in-render', component: ThrowsString },
    {
      path: '/string-in-load',
      component: () => null,
      load: () => {
        throw 'a thrown string from load';
      },
    },
  ];

  test.each(['/string-in-render', '/string-in-load'])('a string thrown at %s is one error line whose digest the page shows', async (path) => {
    const { app, logs } = buildApp(stringRoutes);
    const res = await request(app).get(path);
    expect(res.status).toBe(500);
    const line = only(errorLines(logs));
    expect(line).toMatchObject({ digest: digestOnPage(res.text), err: { type: 'string', name: 'NonError', message: expect.stringContaining('a thrown string') } });
  });

  test("the line's err says the class of what was thrown, and holds only its name, message, stack and status", async () => {
    class InventoryError extends Error {
      readonly status = 503;
      readonly request = { headers: { authorization: 'Bearer SECRET-TOKEN' } };
    }
    const { app, logs } = buildApp([
      {
        path: '/inventory',
        component: () => null,
        load: () => {
          throw new InventoryError('the inventory is away');
        },
      },
    ]);
    await request(app).get('/inventory').expect(500);
    const { err } = only(errorLines(logs));
    expect(err).toEqual({ type: 'InventoryError', name: 'Error', message: 'the inventory is away', stack: expect.stringContaining('the inventory is away'), status: 503 });
  });

  test('an error after the headers were sent is one pino line with a digest, never console.error, and the response is cut', async () => {
    const express = (await import('express')).default;
    const { createErrorHandler } = await import('../../server/errors/error-handler.ts');
    const { createStatusPages } = await import('../../server/errors/status-pages.ts');
    const { createHttpLogger } = await import('../../server/observability/http-logger.ts');
    const { createLogger } = await import('../../server/observability/logger.ts');
    const logs: LogLine[] = [];
    const logger = createLogger({ level: 'debug', destination: { write: (line: string) => logs.push(JSON.parse(line)) } });
    const app = express();
    app.use(createHttpLogger(logger));
    app.get('/late', (_req, res, next) => {
      res.status(200).setHeader('Content-Type', 'text/plain');
      res.write('partial answer');
      next(new Error('failed after the headers were sent'));
    });
    app.use(createErrorHandler({ pages: createStatusPages(), publicHost: undefined, development: false }));

    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      // The answer is cut, so the client sees an aborted response rather than an ending.
      const outcome = await request(app)
        .get('/late')
        .then(
          () => 'ended',
          (error: unknown) => (error instanceof Error ? error.message : String(error)),
        );
      expect(outcome).not.toBe('ended');
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
    }
    const line = only(errorLines(logs));
    expect(line).toMatchObject({ msg: 'server error', digest: expect.stringMatching(/^[A-Za-z0-9_-]{16,}$/), err: { message: 'failed after the headers were sent' } });
    expect(line.reqId).toEqual(expect.any(String));
  });
});
