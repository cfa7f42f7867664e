import request from 'supertest';
import { describe, expect, test } from 'vitest';
import type { LoadContextArgs } from '../../server/render/request-context.ts';
import type { AppLoadContext, LoadContext, PageProps, RouteDefinition } from '../../shared/api/route-definition.ts';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { forbidden, unauthorized } from '../../shared/api/status-helpers.ts';
import { buildApp, errorLines } from '../support/build-app.ts';

interface Session {
  readonly user: string;
  readonly role: 'admin' | 'reader';
}

// How an app types its context once, as docs/building-an-app.md shows.
declare module '../../shared/api/route-definition.ts' {
  interface AppLoadContext {
    readonly session?: Session;
  }
}

/** What the docs' session guard does: the session comes from a cookie, through getLoadContext. */
const SESSIONS: Readonly<Record<string, Session>> = {
  'token-admin': { user: 'ada', role: 'admin' },
  'token-reader': { user: 'rex', role: 'reader' },
};

function sessionOf({ cookies }: LoadContextArgs): AppLoadContext {
  const token = cookies.session;
  const session = token === undefined ? undefined : SESSIONS[token];
  return session === undefined ? {} : { session };
}

function Shown({ data }: PageProps<Record<string, unknown>>) {
  return <pre id="shown">{JSON.stringify(data)}</pre>;
}

const routes: readonly RouteDefinition[] = [
  defineRoute({
    path: '/admin',
    component: Shown,
    load: ({ context }: LoadContext) => {
      const { session } = context;
      if (session === undefined) unauthorized();
      if (session.role !== 'admin') forbidden();
      return { user: session.user };
    },
  }),
  defineRoute({
    path: '/echo/:id',
    component: Shown,
    load: ({ request: req, cookies, params, searchParams, requestId }: LoadContext) => ({
      method: req.method,
      url: req.url,
      language: req.headers.get('ACCEPT-LANGUAGE'),
      missing: req.headers.get('x-not-sent'),
      theme: cookies.theme ?? null,
      cookieNames: Object.keys(cookies).sort(),
      frozen: Object.isFrozen(cookies),
      id: params.id,
      q: searchParams.get('q'),
      requestId,
    }),
  }),
];

function shown(html: string): Record<string, unknown> {
  const text = /<pre id="shown">([^<]*)<\/pre>/.exec(html)?.[1];
  if (text === undefined) throw new Error(`no data on the page:\n${html}`);
  return JSON.parse(text.replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
}

describe('a session guard from getLoadContext and a cookie', () => {
  const { app, logs } = buildApp(routes, { getLoadContext: sessionOf });

  test('answers 401 without a session', async () => {
    const res = await request(app).get('/admin');
    expect(res.status).toBe(401);
    expect(res.text).toContain('<title>401: You&#x27;re not authorized to access this page.</title>');
  });

  test('answers 403 for the wrong role', async () => {
    const res = await request(app).get('/admin').set('Cookie', 'session=token-reader');
    expect(res.status).toBe(403);
    expect(res.text).toContain('<title>403: This page could not be accessed.</title>');
  });

  test("shows the page with getLoadContext's value for the right role", async () => {
    const res = await request(app).get('/admin').set('Cookie', 'session=token-admin');
    expect(res.status).toBe(200);
    expect(shown(res.text)).toEqual({ user: 'ada' });
  });

  test('never writes a cookie or authorization value to the log', async () => {
    logs.length = 0;
    await request(app).get('/admin').set('Cookie', 'session=token-admin').set('Authorization', 'Bearer SECRET-BEARER');
    await request(app).get('/admin').set('Cookie', 'session=token-reader');
    const text = JSON.stringify(logs);
    expect(logs.length).toBeGreaterThan(0);
    expect(text).not.toContain('token-admin');
    expect(text).not.toContain('token-reader');
    expect(text).not.toContain('SECRET-BEARER');
    expect(errorLines(logs)).toEqual([]);
  });
});

describe('the request as load sees it', () => {
  test('method, absolute URL from the public origin, headers case-insensitively, parsed read-only cookies, params and query', async () => {
    const { app } = buildApp(routes, { publicOrigin: new URL('https://shop.example.com') });
    const res = await request(app)
      .get('/echo/42?q=shoes')
      .set('Host', 'evil.example')
      .set('Accept-Language', 'fr-CH, fr;q=0.9')
      .set('Cookie', 'theme=dark; other=%E2%9C%93')
      .set('X-Request-Id', 'rid-ctx');
    expect(res.status).toBe(200);
    expect(shown(res.text)).toEqual({
      method: 'GET',
      url: 'https://shop.example.com/echo/42?q=shoes',
      language: 'fr-CH, fr;q=0.9',
      missing: null,
      theme: 'dark',
      cookieNames: ['other', 'theme'],
      frozen: true,
      id: '42',
      q: 'shoes',
      requestId: expect.any(String),
    });
  });

  test("takes the host from a trusted proxy's forwarded headers, and from Host otherwise", async () => {
    const trusted = buildApp(routes, { trustProxy: 'loopback' }).app;
    const viaProxy = await request(trusted).get('/echo/1').set('X-Forwarded-Proto', 'https').set('X-Forwarded-Host', 'www.example.org');
    expect(shown(viaProxy.text)).toMatchObject({ url: 'https://www.example.org/echo/1' });

    const untrusted = buildApp(routes).app;
    const direct = await request(untrusted).get('/echo/1').set('Host', 'app.internal:3000').set('X-Forwarded-Host', 'spoofed.example');
    expect(shown(direct.text)).toMatchObject({ url: 'http://app.internal:3000/echo/1' });
  });

  test('gives load an empty context without getLoadContext', async () => {
    const { app } = buildApp([defineRoute({ path: '/ctx', component: Shown, load: ({ context }: LoadContext) => ({ keys: Object.keys(context) }) })]);
    const res = await request(app).get('/ctx');
    expect(shown(res.text)).toEqual({ keys: [] });
  });

  test('a getLoadContext that fails ends in the 500 page with one error line', async () => {
    const { app, logs } = buildApp(routes, {
      getLoadContext: () => {
        throw new Error('session store down');
      },
    });
    const res = await request(app).get('/admin');
    expect(res.status).toBe(500);
    expect(errorLines(logs)).toHaveLength(1);
    expect(errorLines(logs)[0]).toMatchObject({ err: { message: 'session store down' } });
  });
});
