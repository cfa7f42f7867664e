import express, { type Request } from 'express';
import request from 'supertest';
import { describe, expect, test, vi } from 'vitest';
import { type AnswerKind, appHeaders, assertNoSharedCookie, isSharedCacheable, SharedCacheCookieError, setRouteHeaders } from '../../server/security/app-headers.ts';

/**
 * The app's headers on an answer (server/security/app-headers.ts): how a route's replace those
 * set before them, but `Vary`, whose names add up, and which `Cache-Control` lets a shared cache
 * keep an answer, on which no cookie may be set. The headers the framework keeps for itself are
 * held on the wire by load-answers.test.tsx, resource-routes.test.tsx and app-context.test.tsx.
 */
/** Every name the framework keeps on every kind of answer, as docs/security.md lists them. */
const ALWAYS = [
  'content-security-policy',
  'content-security-policy-report-only',
  'cross-origin-opener-policy',
  'permissions-policy',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-frame-options',
  'x-navigation-redirect',
  'x-request-id',
  // Hop-by-hop (RFC 9110, section 7.6.1): Node keeps the connection and frames the message.
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];
const BODY = ['content-encoding', 'content-length', 'content-range', 'content-type', 'location'];
const CACHING = ['cache-control', 'vary'];

/** The names appHeaders refuses for a kind of answer, from its one warn line, and what it lets through. */
function sorted(kind: AnswerKind, names: readonly string[]) {
  const warn = vi.fn();
  const req = { log: { warn } } as unknown as Request;
  const given = new Headers(names.map((name): [string, string] => [name, 'x']));
  const own = appHeaders(req, '/r', given, kind);
  const refused: unknown = warn.mock.calls[0]?.[0];
  return { refused: (refused as { headers?: string[] } | undefined)?.headers ?? [], kept: own.headers.map(([name]) => name), calls: warn.mock.calls.length };
}

describe('the headers the framework keeps for itself', () => {
  const every = [...ALWAYS, ...BODY, ...CACHING, 'x-app'].sort();

  test.each<[AnswerKind, readonly string[]]>([
    ['page', [...ALWAYS, ...BODY]],
    ['redirect', [...ALWAYS, ...BODY]],
    ['resource', ALWAYS],
    ['context', [...ALWAYS, ...BODY, ...CACHING]],
  ])("are left out of a %s's headers, named in one warn line", (kind, owned) => {
    const { refused, kept, calls } = sorted(kind, every);
    expect(calls).toBe(1);
    expect(refused).toEqual([...owned].sort());
    // What is not the framework's goes through; a route's Cache-Control is kept apart (cacheControl).
    expect(kept).toEqual(every.filter((name) => !owned.includes(name) && name !== 'cache-control'));
  });

  test('a route that gives none of them writes no warn line', () => {
    expect(sorted('page', ['x-app', 'vary']).calls).toBe(0);
  });
});

describe("a route's headers put on its answer", () => {
  test('replace those of the same name set before, but Vary, which adds its names', async () => {
    const app = express();
    app.get('/', (_req, res) => {
      res.setHeader('X-Kind', 'context');
      res.setHeader('Vary', 'Cookie');
      setRouteHeaders(res, [
        ['x-kind', 'page'],
        ['vary', 'Accept-Language'],
      ]);
      res.end();
    });
    const res = await request(app).get('/');
    expect(res.headers['x-kind']).toBe('page');
    expect(res.headers.vary).toBe('Cookie, Accept-Language');
  });
});

describe('whether a shared cache may keep an answer', () => {
  test.each([
    ['public', true],
    ['max-age=60', true],
    ['max-age = 60', true],
    ['max-age= 60', true],
    ['s-maxage=600', true],
    ['s-maxage =600', true],
    ['no-cache, s-maxage=600', true],
    ['max-age=0', false],
    ['public, private', false],
    ['public, no-store', false],
    ['PUBLIC', true],
    ['no-cache', false],
  ])('%s: %s', (cacheControl, shared) => {
    expect(isSharedCacheable(cacheControl)).toBe(shared);
  });
});

describe('a cookie on an answer a shared cache may keep', () => {
  test('is refused with an error that names the route, or none', () => {
    const own = { headers: [], cookies: ['a=1'], cacheControl: 'public, max-age=60' };
    expect(() => assertNoSharedCookie('/shop', own, false)).toThrow('Route /shop: an answer with Cache-Control "public, max-age=60" may be kept by a shared cache');
    const error = new SharedCacheCookieError(null, 'public');
    expect(error.name).toBe('SharedCacheCookieError');
    expect(error.message).toMatch(/^Route \(none\): an answer with Cache-Control "public"/);
    expect(() => assertNoSharedCookie('/shop', { ...own, cookies: [] }, true)).toThrow(SharedCacheCookieError);
    expect(() => assertNoSharedCookie('/shop', { ...own, cookies: [] }, false)).not.toThrow();
    expect(() => assertNoSharedCookie('/shop', { ...own, cacheControl: 'private' }, true)).not.toThrow();
  });
});
