import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineApp, type LoadContextArgs } from '../../server/index.ts';
import { createTestApp, type TestLogLine } from '../../server/testing/index.ts';
import { data, defineRoute, notFound, redirect, unauthorized, type PageProps } from '../../shared/index.ts';
import { NAVIGATION_FETCHER_HEADER, NAVIGATION_HEADER, NAVIGATION_REDIRECT_HEADER, NAVIGATION_SCOPE_HEADER } from '../../shared/protocol/navigation-headers.ts';

/**
 * The app's getLoadContext as an app declares it (defineApp, createTestApp): it is given the
 * request as load sees it and headers for the answer, no Express object
 * (docs/building-an-app.md#the-request-cookies-and-the-apps-context).
 */

/** What the context saw of the request, as the page shows it. */
interface Seen {
  readonly method: string;
  readonly url: string;
  readonly accept: string | null;
  readonly theme: string | undefined;
  readonly requestId: string;
}

declare module '../../shared/api/route-definition.ts' {
  interface AppLoadContext {
    readonly seen?: Seen;
  }
}

const NAVIGATION = { [NAVIGATION_HEADER]: 'data', [NAVIGATION_SCOPE_HEADER]: 'n1', Accept: 'application/x-ndjson, application/json;q=0.9' };
const FETCHER = { ...NAVIGATION, [NAVIGATION_FETCHER_HEADER]: '1' };
const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin' };

function Shown({ data: shown }: PageProps) {
  return <pre id="shown">{JSON.stringify(shown)}</pre>;
}

/** The JSON the page wrote, as the browser would read it. */
function shownIn(html: string): unknown {
  const text = /<pre id="shown">([^<]*)<\/pre>/.exec(html)?.[1] ?? 'null';
  return JSON.parse(text.replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
}

function cookies(res: request.Response): string[] {
  return ([] as string[]).concat(res.headers['set-cookie'] ?? []);
}

const warnings = (logs: TestLogLine[]) => logs.filter((line) => line.level === 40);

const routes = [
  defineRoute({
    path: '/seen',
    component: Shown,
    load: ({ context }) => context.seen,
    action: () => ({ saved: true }),
  }),
  defineRoute({ path: '/missing', component: Shown, load: () => notFound() }),
  defineRoute({ path: '/bounded', component: Shown, load: () => notFound(), ErrorBoundary: () => <p id="boundary">not here</p> }),
  defineRoute({ path: '/own', component: Shown, load: () => data({}, { headers: { 'X-Tenant': 'route' } }) }),
  defineRoute({
    path: '/saves',
    component: Shown,
    load: () => ({}),
    action: () => redirect('/seen', { headers: { 'Set-Cookie': 'flash=saved; Path=/' } }),
  }),
  defineRoute({
    path: '/api/seen',
    load: ({ context }) => Response.json(context.seen ?? null),
  }),
  defineRoute({
    path: '/api/own',
    load: () => new Response('plain', { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Tenant': 'route' } }),
  }),
];

/** Sees the request and sets one header and one cookie on every answer. */
function seeing({ request: { method, url, headers }, cookies: sent, requestId, responseHeaders }: LoadContextArgs) {
  responseHeaders.set('X-Tenant', 'acme');
  responseHeaders.append('Set-Cookie', 'seen=1; Path=/; HttpOnly');
  return { seen: { method, url, accept: headers.get('accept'), theme: sent.theme, requestId } };
}

const app = () => createTestApp(defineApp({ routes, getLoadContext: seeing }));

describe('getLoadContext is given the request as load sees it', () => {
  test('its method, absolute URL, headers, cookies and id, on a page and a resource route', async () => {
    const { app: served } = app();
    const res = await request(served).get('/seen?page=2').set({ Accept: 'text/html', Cookie: 'theme=dark' });
    expect(res.status).toBe(200);
    expect(shownIn(res.text)).toEqual({
      method: 'GET',
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/seen\?page=2$/),
      accept: 'text/html',
      theme: 'dark',
      requestId: res.headers['x-request-id'],
    });
    const api = await request(served).get('/api/seen').set({ Accept: 'application/json', Cookie: 'theme=light' });
    expect(api.body).toMatchObject({ method: 'GET', accept: 'application/json', theme: 'light' });
    expect(api.body.url).toMatch(/\/api\/seen$/);
  });

  test("an action's post: POST, and the one context made for it also shows the page again", async () => {
    let made = 0;
    const { app: served } = createTestApp(
      defineApp({
        routes,
        getLoadContext: (args) => {
          made += 1;
          return seeing(args);
        },
      }),
    );
    const res = await request(served).post('/seen').set(SAME_ORIGIN).type('form').send({ name: 'ada' });
    expect(res.status).toBe(200);
    expect(shownIn(res.text)).toMatchObject({ method: 'POST' });
    // Made once per request: its cookie once, beside the form token's.
    expect(made).toBe(1);
    expect(cookies(res).filter((cookie) => cookie.startsWith('seen='))).toEqual(['seen=1; Path=/; HttpOnly']);
  });

  test('its signal aborts when the render timeout passes', async () => {
    let aborted: unknown;
    const { app: served } = createTestApp(
      defineApp({
        routes,
        getLoadContext: ({ signal }) =>
          new Promise((resolve) => {
            signal.addEventListener('abort', () => {
              aborted = signal.reason;
              resolve({});
            });
          }),
      }),
      { pages: { renderTimeoutMs: 50 } },
    );
    expect((await request(served).get('/seen')).status).toBe(500);
    expect(aborted).toMatchObject({ name: 'RenderTimeoutError' });
  });
});

describe('a header and a cookie set on responseHeaders reach every answer of the request', () => {
  test.each([
    ['the document', 'get', '/seen', {}, 200],
    ['the navigation data', 'get', '/seen', NAVIGATION, 200],
    ['a resource route', 'get', '/api/seen', {}, 200],
    ['the page shown again after a post', 'post', '/seen', SAME_ORIGIN, 200],
    ["a fetcher's answer", 'post', '/seen', { ...SAME_ORIGIN, ...FETCHER }, 200],
    ["an action's redirect", 'post', '/saves', SAME_ORIGIN, 303],
    ["an in-place post's redirect", 'post', '/saves', { ...SAME_ORIGIN, ...NAVIGATION }, 204],
    ["a load's status page", 'get', '/missing', {}, 404],
    ["a route's error boundary", 'get', '/bounded', {}, 404],
  ] as const)('%s', async (_answer, method, path, headers, status) => {
    const { app: served, logs } = app();
    const res = method === 'get' ? await request(served).get(path).set(headers) : await request(served).post(path).set(headers).type('form').send({ name: 'ada' });
    expect(res.status).toBe(status);
    expect(res.headers['x-tenant']).toBe('acme');
    expect(cookies(res)).toContain('seen=1; Path=/; HttpOnly');
    expect(warnings(logs)).toEqual([]);
  });

  test("beside a redirect's own cookie, each once; the in-place one names where to go", async () => {
    const res = await request(app().app)
      .post('/saves')
      .set({ ...SAME_ORIGIN, ...NAVIGATION })
      .type('form')
      .send({});
    expect(res.headers[NAVIGATION_REDIRECT_HEADER]).toBe('/seen');
    expect(cookies(res).sort()).toEqual(['flash=saved; Path=/', 'seen=1; Path=/; HttpOnly']);
  });

  test.each([
    ['a page', '/own', {}],
    ['its navigation data', '/own', NAVIGATION],
    ['a resource route', '/api/own', {}],
  ] as const)("a route's own header of the same name replaces the context's: %s", async (_answer, path, headers) => {
    const res = await request(app().app).get(path).set(headers);
    expect(res.status).toBe(200);
    // One value: Node would join two with a comma.
    expect(res.headers['x-tenant']).toBe('route');
  });

  test('what it set before it threw is not sent', async () => {
    const { app: served } = createTestApp(
      defineApp({
        routes,
        getLoadContext: ({ responseHeaders }) => {
          responseHeaders.set('X-Tenant', 'acme');
          unauthorized();
        },
      }),
    );
    const res = await request(served).get('/seen');
    expect(res.status).toBe(401);
    expect(res.headers['x-tenant']).toBeUndefined();
  });
});

describe("getLoadContext's status helpers and redirect answer as before", () => {
  const guarded = () =>
    createTestApp(
      defineApp({
        routes,
        getLoadContext: ({ cookies: sent }) => {
          if (sent.banned !== undefined) unauthorized();
          if (sent.session === undefined) redirect('/sign-in', { headers: { 'Set-Cookie': 'next=/seen; Path=/' } });
          return {};
        },
      }),
    );

  test('a status helper is its status page, with no error line', async () => {
    const { app: served, logs } = guarded();
    const res = await request(served).get('/seen').set('Cookie', 'session=1; banned=1');
    expect(res.status).toBe(401);
    expect(res.text).toContain('401');
    expect(logs.filter((line) => line.level >= 50)).toEqual([]);
  });

  test("redirect() is 302 on a page, 303 on a post, 204 in place, with its init's cookie", async () => {
    const { app: served } = guarded();
    const page = await request(served).get('/seen');
    expect([page.status, page.headers.location, cookies(page)]).toEqual([302, '/sign-in', ['next=/seen; Path=/']]);
    const post = await request(served).post('/seen').set(SAME_ORIGIN).type('form').send({});
    expect([post.status, post.headers.location]).toEqual([303, '/sign-in']);
    const inPlace = await request(served).get('/seen').set(NAVIGATION);
    expect([inPlace.status, inPlace.headers[NAVIGATION_REDIRECT_HEADER]]).toEqual([204, '/sign-in']);
    expect((await request(served).get('/seen').set('Cookie', 'session=1')).status).toBe(200);
  });
});

describe("responseHeaders cannot forge the framework's headers", () => {
  const forging = () =>
    createTestApp(
      defineApp({
        routes,
        getLoadContext: ({ responseHeaders }) => {
          responseHeaders.set('Content-Type', 'text/plain');
          responseHeaders.set('Content-Security-Policy', "script-src 'unsafe-inline'");
          responseHeaders.set('X-Frame-Options', 'ALLOWALL');
          responseHeaders.set('X-Request-Id', 'forged');
          responseHeaders.set('Location', 'https://evil.example/');
          responseHeaders.set('Cache-Control', 'public, max-age=3600');
          responseHeaders.set('Vary', 'Cookie');
          responseHeaders.set('X-Tenant', 'acme');
          return {};
        },
      }),
    );
  const LEFT_OUT = ['cache-control', 'content-security-policy', 'content-type', 'location', 'vary', 'x-frame-options', 'x-request-id'];

  test.each([
    ['the document', '/seen', {}, 'text/html; charset=utf-8'],
    ['the navigation data', '/seen', NAVIGATION, 'application/x-ndjson; charset=utf-8'],
    ['a resource route', '/api/seen', {}, 'application/json'],
    ['a status page', '/missing', {}, 'text/html; charset=utf-8'],
  ] as const)('%s keeps its own, and one warn line names those left out', async (_answer, path, headers, type) => {
    const { app: served, logs } = forging();
    const res = await request(served).get(path).set(headers);
    expect(res.headers['content-type']).toBe(type);
    expect(String(res.headers['content-security-policy'])).not.toContain('unsafe-inline');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['cache-control']).not.toContain('public');
    expect(String(res.headers.vary ?? '')).not.toContain('Cookie');
    expect(res.headers['x-tenant']).toBe('acme');
    const left = warnings(logs).filter((line) => line.msg === 'app headers left out');
    expect(left).toHaveLength(1);
    expect(left[0]?.headers).toEqual(LEFT_OUT);
    // Names only: no value reaches the log.
    expect(JSON.stringify(logs)).not.toContain('evil.example');
  });

  test("a cookie on a page a shared cache may keep is refused, as a load's is", async () => {
    const { app: served, logs } = createTestApp(
      defineApp({
        routes: [defineRoute({ path: '/shared', component: Shown, load: () => data({}, { headers: { 'Cache-Control': 'public, max-age=60' } }) })],
        getLoadContext: ({ responseHeaders }) => {
          responseHeaders.append('Set-Cookie', 'seen=1; Path=/');
          return {};
        },
      }),
    );
    const res = await request(served).get('/shared');
    expect(res.status).toBe(500);
    expect(res.headers['cache-control']).not.toContain('public');
    expect(JSON.stringify(logs.filter((line) => line.level === 50))).toContain('cannot set a cookie');
  });
});

test('a value no header may hold is the 500 page, and never reaches the log', async () => {
  for (const value of ['token\u0001secret', 'token\rsecret']) {
    const { app: served, logs } = createTestApp(
      defineApp({
        routes,
        getLoadContext: ({ responseHeaders }) => {
          responseHeaders.set('X-Token', value);
          return {};
        },
      }),
    );
    const res = await request(served).get('/seen');
    expect(res.status).toBe(500);
    expect(res.headers['x-token']).toBeUndefined();
    expect(logs.filter((line) => line.level === 50)).toHaveLength(1);
    expect(JSON.stringify(logs)).not.toContain('secret');
  }
});
