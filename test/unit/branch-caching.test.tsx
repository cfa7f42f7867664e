import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { NAVIGATION_HEADER, NAVIGATION_KEEP_HEADER, NAVIGATION_SCOPE_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { data } from '../../shared/api/answers.ts';
import { defineRoute, layout, type RouteTableEntry } from '../../shared/api/route-definition.ts';
import { Outlet } from '../../shared/api/route-hooks.tsx';
import { strictestCacheControl } from '../../server/http/cache-control.ts';
import { createCookieSessionStorage } from '../../server/sessions/cookie-session.ts';
import { asHydrating, buildApp } from '../support/build-app.ts';

/**
 * Caching across a branch (docs/responses.md#caching): the most restrictive Cache-Control of the
 * layouts and the page wins, every `Vary` is kept, and an answer to a request that carries a
 * session cookie is never shared-cacheable, on the document, in navigation data and on a
 * resource route.
 */

/** A layout and a page inside it, each answering with the headers given. */
function branch(layoutHeaders: Record<string, string>, pageHeaders: Record<string, string>, action = false) {
  const table: RouteTableEntry[] = [
    layout(
      { default: () => <Outlet />, load: () => data({ layout: true }, { headers: layoutHeaders }) },
      [
        defineRoute({
          path: '/inside',
          component: () => <main>PAGE</main>,
          load: () => data({ name: 'Ada' }, { headers: pageHeaders }),
          ...(action ? { action: () => ({ done: true }) } : {}),
        }),
        defineRoute({ path: '/export', load: () => new Response('rows', { headers: { 'Cache-Control': 'public, max-age=300' } }) }),
      ],
      { id: 'frame' },
    ),
  ];
  const { routes, assets } = asHydrating(table);
  return buildApp(routes, { assets }).app;
}

const NAVIGATION = { [NAVIGATION_HEADER]: 'data', [NAVIGATION_SCOPE_HEADER]: 'n1', Accept: 'application/x-ndjson' };
const KEPT = { ...NAVIGATION, [NAVIGATION_KEEP_HEADER]: 'frame' };

const ANSWERS = [
  ['the document', {}],
  ['navigation data', NAVIGATION],
  ['navigation data keeping the layout', KEPT],
] as const;

describe('Cache-Control across a branch', () => {
  test.each([
    ['a layout private, no-store; a page public', 'private, no-store', 'public, max-age=60', 'private, no-store, max-age=60'],
    ['a layout public for 300 s; a page public for 60 s', 'public, max-age=300', 'public, max-age=60', 'public, max-age=60'],
    ['a layout private; a page public for a shared cache', 'private, max-age=30', 'public, s-maxage=600, max-age=60', 'private, max-age=30'],
    ['a layout that asks to revalidate; a page public', 'no-cache', 'public, max-age=60', 'public, no-cache, max-age=60'],
    ['a layout immutable; a page not', 'public, max-age=60, immutable', 'public, max-age=120', 'public, max-age=60'],
  ])('%s', async (_case, outer, inner, expected) => {
    const app = branch({ 'Cache-Control': outer }, { 'Cache-Control': inner });
    for (const [answer, headers] of ANSWERS) {
      const res = await request(app).get('/inside').set(headers).expect(200);
      expect(res.headers['cache-control'], answer).toBe(expected);
    }
  });

  test('the other way round: a public layout does not loosen a private page', async () => {
    const app = branch({ 'Cache-Control': 'public, max-age=600' }, { 'Cache-Control': 'private, no-store' });
    for (const [answer, headers] of ANSWERS) {
      const res = await request(app).get('/inside').set(headers).expect(200);
      expect(res.headers['cache-control'], answer).toBe('private, no-store, max-age=600');
    }
  });

  test("every level's Vary is kept, each name once", async () => {
    const app = branch({ 'Cache-Control': 'public, max-age=60', Vary: 'Accept-Language, X-Theme' }, { 'Cache-Control': 'public, max-age=60', Vary: 'x-theme' });
    for (const [answer, headers] of ANSWERS) {
      const res = await request(app).get('/inside').set(headers).expect(200);
      const names = String(res.headers.vary)
        .split(',')
        .map((name) => name.trim().toLowerCase());
      expect(names, answer).toEqual(expect.arrayContaining(['accept-language', 'x-theme']));
      expect(
        names.filter((name) => name === 'x-theme'),
        answer,
      ).toHaveLength(1);
    }
  });

  test('a page that says only max-age may be kept by a shared cache, so it may not set a cookie: the 500 page', async () => {
    const app = branch({}, { 'Cache-Control': 'max-age=60', 'Set-Cookie': 'theme=dark; Path=/' });
    const res = await request(app).get('/inside').expect(500);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('an answer to a request that carries a session cookie', () => {
  // The storage's name is what makes its cookie a session's (server/sessions/session-cookies.ts).
  createCookieSessionStorage({ cookie: { name: 'branch_caching_session', secrets: ['s'.repeat(32)] } });

  test.each(ANSWERS)('%s of a public page is private, and carries the form token', async (answer, headers) => {
    const app = branch({}, { 'Cache-Control': 'public, s-maxage=600, max-age=60' }, true);
    const anonymous = await request(app).get('/inside').set(headers).expect(200);
    expect(anonymous.headers['cache-control'], answer).toBe('public, s-maxage=600, max-age=60');
    const signedIn = await request(app).get('/inside').set(headers).set('Cookie', 'branch_caching_session=x; other=1').expect(200);
    expect(signedIn.headers['cache-control'], answer).toBe('private, max-age=60');
    // A private answer may carry the visitor's form token; the shared one may not.
    expect(signedIn.text).toMatch(/formToken/);
    expect(anonymous.text).not.toMatch(/formToken/);
  });

  test('a resource route that asks to be public is private', async () => {
    const app = branch({}, {});
    expect((await request(app).get('/export').expect(200)).headers['cache-control']).toBe('public, max-age=300');
    const signedIn = await request(app).get('/export').set('Cookie', 'branch_caching_session=x').expect(200);
    expect(signedIn.headers['cache-control']).toBe('private, max-age=300');
  });

  test('another cookie of the same request changes nothing', async () => {
    const app = branch({}, { 'Cache-Control': 'public, max-age=60' });
    const res = await request(app).get('/inside').set('Cookie', 'theme=dark').expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
  });
});

describe('strictestCacheControl', () => {
  test.each([
    [['public, max-age=60'], 'public, max-age=60'],
    [[undefined, 'public, max-age=60'], 'public, max-age=60'],
    [[undefined, undefined], undefined],
    [['public, max-age=60, stale-while-revalidate=30', 'public, max-age=90, stale-while-revalidate=10'], 'public, max-age=60, stale-while-revalidate=10'],
    [['public, max-age=60, stale-while-revalidate=30', 'public, max-age=90'], 'public, max-age=60'],
    [['public, s-maxage=60', 'public, s-maxage=30, must-revalidate'], 'public, must-revalidate, s-maxage=30'],
    [['no-store', 'public'], 'private, no-store'],
  ] as const)('%j gives %s', (levels, expected) => {
    expect(strictestCacheControl(levels)).toBe(expected);
  });
});
