import express from 'express';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { assertNoSharedCookie, isSharedCacheable, SharedCacheCookieError, setRouteHeaders } from '../../server/security/app-headers.ts';

/**
 * The app's headers on an answer (server/security/app-headers.ts): how a route's replace those
 * set before them, but `Vary`, whose names add up, and which `Cache-Control` lets a shared cache
 * keep an answer, on which no cookie may be set. The headers the framework keeps for itself are
 * held on the wire by load-answers.test.tsx, resource-routes.test.tsx and app-context.test.tsx.
 */
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
