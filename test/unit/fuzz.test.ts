import type { Server } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { routes as fixtureRoutes } from '../support/fixture-server-routes.tsx';
import { buildApp, errorLines, type TestApp } from '../support/build-app.ts';
import { close, listen } from '../support/http-client.ts';
import { rawRequest } from '../support/raw-http.ts';
import { unitRoutes } from '../support/pages.tsx';

/** A few hundred in `npm test`; `npm run fuzz` sets FUZZ_RUNS=10000 for the long job. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 200 });
const pathCharacters = fc.string({
  unit: fc.constantFrom(..."abcXYZ019-._~!$&'()*+,;=:@".split('')),
  maxLength: 20,
});
const percentByte = fc.integer({ min: 0, max: 255 }).map((byte) => `%${byte.toString(16).padStart(2, '0')}`);
const brokenPercent = fc.constantFrom('%', '%z', '%4', '%%', '%G0', '%u0041');
const unicodeSegment = fc.string({ unit: 'grapheme', maxLength: 8 }).map(encodeURIComponent);
const segment = fc.oneof(pathCharacters, percentByte, brokenPercent, unicodeSegment, fc.constantFrom('..', '.', '', 'assets', 'users', 'layouts', 'one', '%2e%2e', '%2f'));
const randomPath = fc.array(segment, { maxLength: 8 }).map((segments) => `/${segments.join('/')}`);
/** Random paths, and often the app's own pages, whose handlers random headers must not break either. */
const path = fc.oneof(randomPath, fc.constantFrom('/', '/users/42', '/layouts/one'));
const query = fc.option(fc.array(fc.oneof(pathCharacters, percentByte, brokenPercent, fc.constantFrom('=', '&', '?', '[]', '__proto__')), { maxLength: 12 }), {
  nil: undefined,
});
const method = fc.oneof(fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE'), fc.stringMatching(/^[A-Z]{1,12}$/));
const headerValue = fc.oneof(printable, fc.constantFrom('', 'application/json', 'text/html', '*/*', 'Googlebot/2.1'));
/** What the client router sends (client/router.tsx), and spellings of it that are not. */
const navigation = fc.record({
  mode: fc.oneof(printable, fc.constantFrom('data', 'DATA', 'document', '')),
  scope: fc.option(fc.oneof(printable, fc.constantFrom('n1', 'n42', '', 'n1,n2')), { nil: undefined }),
  keep: fc.option(fc.oneof(printable, fc.constantFrom('shell', 'section', 'shell,section', 'shell,unknown', ',')), { nil: undefined }),
});

const request = fc.record({
  method,
  path,
  query,
  requestId: fc.option(headerValue, { nil: undefined }),
  accept: fc.option(headerValue, { nil: undefined }),
  userAgent: fc.option(headerValue, { nil: undefined }),
  cookie: fc.option(headerValue, { nil: undefined }),
  navigation: fc.option(navigation, { nil: undefined }),
});

type FuzzRequest = typeof request extends fc.Arbitrary<infer T> ? T : never;

function toBytes(r: FuzzRequest): string {
  const target = r.query === undefined ? r.path : `${r.path}?${r.query.join('')}`;
  const headers = [
    'Host: localhost',
    r.requestId === undefined ? undefined : `X-Request-Id: ${r.requestId}`,
    r.accept === undefined ? undefined : `Accept: ${r.accept}`,
    r.userAgent === undefined ? undefined : `User-Agent: ${r.userAgent}`,
    r.cookie === undefined ? undefined : `Cookie: ${r.cookie}`,
    r.navigation === undefined ? undefined : `X-Navigation: ${r.navigation.mode}`,
    r.navigation?.scope === undefined ? undefined : `X-Navigation-Scope: ${r.navigation.scope}`,
    r.navigation?.keep === undefined ? undefined : `X-Navigation-Keep: ${r.navigation.keep}`,
    'Connection: close',
  ].filter((line) => line !== undefined);
  return `${r.method} ${target} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`;
}

describe(`fuzzing createApp with random requests (${RUNS} runs)`, () => {
  let built: TestApp;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    // The home page, a page with a parameter, and pages inside two layouts (which a navigation may keep).
    const pages = fixtureRoutes.filter((route) => route.path === '/' || route.path === '/layouts/one');
    built = buildApp([...pages, ...unitRoutes().filter((route) => route.path === '/users/:id')]);
    const listening = await listen(built.app);
    server = listening.server;
    port = Number(new URL(listening.origin).port);
  });
  afterAll(() => close(server));

  test(
    'never answers 5xx, never shows a stack, always a status page, JSON or a whole page',
    async () => {
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          const res = await rawRequest(port, toBytes(r));
          expect(res.status).toBeGreaterThanOrEqual(200);
          expect(res.status).toBeLessThan(500);
          expect(res.body).not.toMatch(/\n\s+at .+:\d+:\d+/);
          const type = /content-type: ([^\r\n;]+)/i.exec(res.head)?.[1]?.toLowerCase();
          if (r.method === 'HEAD' || res.status === 204) {
            expect(res.body).toBe('');
          } else if (type === 'text/html') {
            expect(res.body.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
            expect(res.body.trimEnd().endsWith('</html>')).toBe(true);
            if (res.status >= 400) expect(res.body).toContain(`<title>${res.status}: `);
          } else if (type === 'application/json') {
            expect(JSON.parse(res.body)).toMatchObject({ status: res.status });
          } else if (type === 'application/x-ndjson') {
            // An in-place navigation's data: one JSON value a line.
            for (const line of res.body.trimEnd().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
          } else {
            // Only Node's parser answers without the app: a short plain status line.
            expect(type).toBe('text/plain');
            expect(res.body).toMatch(/^\d{3} [A-Za-z -]+\n$/);
          }
        }),
        { numRuns: RUNS },
      );
      expect(errorLines(built.logs)).toEqual([]);
    },
    30_000 + RUNS * 20,
  );
});
