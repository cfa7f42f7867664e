import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { NAVIGATION_HEADER, NAVIGATION_REDIRECT_HEADER, NAVIGATION_SCOPE_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { Form } from '../../shared/api/form.tsx';
import { data, redirect } from '../../shared/api/answers.ts';
import { defineRoute, type LoadedData, type PageProps, type RouteDefinition } from '../../shared/api/route-definition.ts';
import { asHydrating, buildApp, errorLines, LEVEL, type LogLine } from '../support/build-app.ts';
import { navigationDataOf } from '../support/navigation-data-lines.ts';
import { pageDataOf } from '../support/page-data-scripts.ts';

/**
 * What `load` and an action can answer beyond their data (docs/responses.md): `data(value,
 * init)` with a status and headers, `redirect(url, init)` from `load`, and a page a shared cache
 * may keep, which then carries no per-request secret. On the wire, for the document and for an
 * in-place navigation's data.
 */

const NAVIGATION = { [NAVIGATION_HEADER]: 'data', [NAVIGATION_SCOPE_HEADER]: 'n1', Accept: 'application/x-ndjson, application/json;q=0.9' };
const NO_STORE = 'private, no-cache, no-store, max-age=0, must-revalidate';

function Shown({ data: value, actionData }: PageProps) {
  return (
    <main>
      <h1>SHOWN</h1>
      <pre id="data">{JSON.stringify(value)}</pre>
      {actionData === undefined ? null : <pre id="action">{JSON.stringify(actionData)}</pre>}
      <Form method="post">
        <button type="submit">Send</button>
      </Form>
    </main>
  );
}

/** `load` with `data()`: typed so that the page receives what is inside it (LoadedData). */
function loadOrder() {
  return data({ order: 1 }, { headers: { 'X-Load': 'yes' } });
}

function Order({ data: value, actionData }: PageProps<LoadedData<typeof loadOrder>>) {
  return <Shown data={{ order: value.order }} params={{}} actionData={actionData} />;
}

function twoCookies(): Headers {
  const headers = new Headers();
  headers.append('Set-Cookie', 'one=1; Path=/');
  headers.append('Set-Cookie', 'two=2; Path=/');
  headers.set('X-Page', 'instance');
  return headers;
}

/** An action, so that the page hands out a form token (only pages that take posts do) whose cookie joins the page's own. */
const takesPosts = () => ({});

const pages: RouteDefinition[] = [
  defineRoute({ path: '/status/:code', component: Shown, load: ({ params }) => data({ shown: params.code }, Number(params.code)) }),
  defineRoute({ path: '/headers/object', component: Shown, action: takesPosts, load: () => data({}, { headers: { 'X-Page': 'object', 'Set-Cookie': 'one=1; Path=/' } }) }),
  defineRoute({
    path: '/headers/array',
    component: Shown,
    action: takesPosts,
    load: () =>
      data(
        {},
        {
          status: 201,
          headers: [
            ['X-Page', 'array'],
            ['Set-Cookie', 'one=1; Path=/'],
            ['Set-Cookie', 'two=2; Path=/'],
          ],
        },
      ),
  }),
  defineRoute({ path: '/headers/instance', component: Shown, action: takesPosts, load: () => data({}, { headers: twoCookies() }) }),
  defineRoute({
    path: '/headers/security',
    component: Shown,
    load: () =>
      data(
        {},
        {
          headers: {
            'Content-Security-Policy': 'default-src *',
            'Content-Security-Policy-Report-Only': 'default-src *',
            'X-Frame-Options': 'ALLOWALL',
            'Strict-Transport-Security': 'max-age=0',
            'X-Content-Type-Options': 'none',
            'Content-Type': 'text/plain',
            [NAVIGATION_REDIRECT_HEADER]: '/elsewhere',
            'X-Page': 'kept',
          },
        },
      ),
  }),
  defineRoute({ path: '/cache', component: Shown, action: takesPosts, load: ({ searchParams }) => data({}, { headers: { 'Cache-Control': searchParams.get('cc') ?? '' } }) }),
  defineRoute({ path: '/cache-cookie', component: Shown, load: () => data({}, { headers: { 'Cache-Control': 'public, max-age=60', 'Set-Cookie': 'session=abc; Path=/' } }) }),
  defineRoute({
    path: '/go',
    component: Shown,
    load: ({ searchParams }) => {
      const status = searchParams.get('status');
      return redirect(searchParams.get('to') ?? '/status/200', status === null ? undefined : Number(status));
    },
  }),
  defineRoute({ path: '/moved-for-a-minute', component: Shown, load: () => redirect('/status/200', { status: 301, headers: { 'Cache-Control': 'public, max-age=60' } }) }),
  defineRoute({
    path: '/sign-out',
    component: Shown,
    load: () =>
      redirect('/status/200', {
        headers: [
          ['Set-Cookie', 'session=; Max-Age=0; Path=/'],
          ['Set-Cookie', 'remember=; Max-Age=0; Path=/'],
        ],
      }),
  }),
  defineRoute({
    path: '/order',
    component: Order,
    load: loadOrder,
    action: ({ body }) => {
      if (body.kind === 'conflict') return data({ saved: false }, { status: 409, headers: { 'Set-Cookie': 'flash=conflict; Path=/' } });
      if (body.kind === 'temporary') redirect('/status/200', 307);
      if (body.kind === 'with-cookie') redirect('/status/200', { headers: { 'Set-Cookie': 'flash=saved; Path=/' } });
      return { saved: true };
    },
  }),
  defineRoute({
    path: '/receipt',
    component: Shown,
    load: () => data({ receipt: 1 }, { status: 203, headers: { 'Set-Cookie': 'a=1; Path=/' } }),
    action: ({ body }) => (body.kind === 'conflict' ? data({ saved: false }, { status: 409, headers: { 'Set-Cookie': 'b=2; Path=/' } }) : { saved: true }),
  }),
];

function app() {
  const hydrating = asHydrating(pages);
  return buildApp(hydrating.routes, { assets: hydrating.assets });
}

function cookies(res: request.Response): string[] {
  const header: unknown = res.headers['set-cookie'];
  return Array.isArray(header) ? header.map(String) : [];
}

function completion(logs: readonly LogLine[]): LogLine | undefined {
  return logs.find((line) => line.msg === 'request completed');
}

/** The security headers every answer of the app carries, whatever a route asked for. */
function expectSecurityHeaders(res: request.Response): void {
  expect(res.headers['content-security-policy']).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]+'/);
  expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
}

describe('data(value, init) from load: the status', () => {
  test.each([200, 201, 203, 299, 400, 404, 410, 503, 599])('%i: the page itself with that status, its data as given', async (status) => {
    const { app: served, logs } = app();
    const res = await request(served).get(`/status/${status}`);
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<h1>SHOWN</h1>');
    expect(pageDataOf(res.text)).toMatchObject({ data: { shown: String(status) } });
    expect(errorLines(logs)).toEqual([]);
  });

  test('an in-place navigation gets the same status on its data', async () => {
    const res = await request(app().app).get('/status/404').set(NAVIGATION);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(navigationDataOf(res.text, 'n1')).toMatchObject({ data: { shown: '404' } });
  });

  test.each([301, 302, 304, 204, 205, 101, 99, 199, 300, 399, 600])('%i is no page status: the 500 page, one error line saying why', async (status) => {
    const { app: served, logs } = app();
    const res = await request(served).get(`/status/${status}`);
    expect(res.status).toBe(500);
    expect(res.text).not.toContain('SHOWN');
    const errors = errorLines(logs);
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain(`data() status ${status} is not a status a page can be answered with`);
    if (status >= 300 && status < 400) expect(JSON.stringify(errors[0])).toContain('use redirect(url, status)');
  });
});

describe('data(value, init) from load: the headers', () => {
  test.each([
    ['/headers/object', 'object', ['one=1; Path=/'], 200],
    ['/headers/array', 'array', ['one=1; Path=/', 'two=2; Path=/'], 201],
    ['/headers/instance', 'instance', ['one=1; Path=/', 'two=2; Path=/'], 200],
  ])('%s: its headers arrive, every Set-Cookie among them, beside the form token cookie', async (path, page, expected, status) => {
    const res = await request(app().app).get(path);
    expect(res.status).toBe(status);
    expect(res.headers['x-page']).toBe(page);
    const set = cookies(res);
    expect(set.slice(0, expected.length)).toEqual(expected);
    // The cross-site check's cookie still arrives: a private page has its form token.
    expect(set.filter((cookie) => cookie.startsWith('csrf='))).toHaveLength(1);
    expect(res.headers['cache-control']).toBe(NO_STORE);
    expectSecurityHeaders(res);
  });

  test('on an in-place navigation the same headers and cookies arrive with the data', async () => {
    const res = await request(app().app).get('/headers/array').set(NAVIGATION);
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['x-page']).toBe('array');
    expect(cookies(res).slice(0, 2)).toEqual(['one=1; Path=/', 'two=2; Path=/']);
    expectSecurityHeaders(res);
  });

  test('HEAD gets the status and headers a GET gets, and no body', async () => {
    const res = await request(app().app).head('/headers/array');
    expect(res.status).toBe(201);
    expect(res.headers['x-page']).toBe('array');
    expect(cookies(res).slice(0, 2)).toEqual(['one=1; Path=/', 'two=2; Path=/']);
    expect(res.text ?? '').toBe('');
  });

  test('never replace the security headers, the body type or the in-place redirect: one warn line names what was left out', async () => {
    for (const extra of [{}, NAVIGATION]) {
      const { app: served, logs } = app();
      const res = await request(served).get('/headers/security').set(extra);
      expect(res.status).toBe(200);
      expectSecurityHeaders(res);
      expect(res.headers['content-security-policy']).not.toContain('default-src *');
      expect(res.headers['content-security-policy-report-only']).toBeUndefined();
      expect(res.headers['content-type']).toMatch(extra === NAVIGATION ? /^application\/x-ndjson/ : /^text\/html/);
      expect(res.headers[NAVIGATION_REDIRECT_HEADER]).toBeUndefined();
      expect(res.headers['x-page']).toBe('kept');
      const warns = logs.filter((line) => line.level === LEVEL.warn);
      expect(warns).toEqual([
        expect.objectContaining({
          msg: 'app headers left out',
          route: '/headers/security',
          headers: [
            'content-security-policy',
            'content-security-policy-report-only',
            'content-type',
            'strict-transport-security',
            'x-content-type-options',
            'x-frame-options',
            NAVIGATION_REDIRECT_HEADER,
          ],
        }),
      ]);
      expect(errorLines(logs)).toEqual([]);
    }
  });
});

describe('redirect(url, init) from load', () => {
  test('302 Found by default, Location resolved to a path of this site, never cached, with the security headers', async () => {
    const { app: served, logs } = app();
    const res = await request(served).get('/go?to=status/200');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/status/200');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text ?? '').toBe('');
    expectSecurityHeaders(res);
    expect(errorLines(logs)).toEqual([]);
    expect(completion(logs)).toMatchObject({ status: 302, route: '/go' });
  });

  test.each([301, 302, 303, 307, 308])('%i when asked for', async (status) => {
    const res = await request(app().app).get(`/go?to=/status/201&status=${status}`);
    expect(res.status).toBe(status);
    expect(res.headers.location).toBe('/status/201');
  });

  test.each([200, 300, 304, 404])('%i is no redirect status: the 500 page, one error line saying why', async (status) => {
    const { app: served, logs } = app();
    const res = await request(served).get(`/go?status=${status}`);
    expect(res.status).toBe(500);
    expect(res.headers.location).toBeUndefined();
    const errors = errorLines(logs);
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain(`redirect() status ${status} is not a redirect status`);
  });

  test.each(['https://evil.example/', '//evil.example/x', '/\\evil.example', '/.//evil.example', '/%2e//evil.example', 'javascript:alert(1)'])(
    'off-site %s: refused as an action refuses it, the 500 page and one error line',
    async (to) => {
      for (const extra of [{}, NAVIGATION]) {
        const { app: served, logs } = app();
        const res = await request(served)
          .get(`/go?${new URLSearchParams({ to })}`)
          .set(extra);
        expect(res.status).toBe(500);
        expect(res.headers.location).toBeUndefined();
        expect(res.headers[NAVIGATION_REDIRECT_HEADER]).toBeUndefined();
        const errors = errorLines(logs);
        expect(errors).toHaveLength(1);
        expect(JSON.stringify(errors[0])).toContain('redirect() refused');
      }
    },
  );

  test("its init's headers go along: a sign-out clears its cookies and redirects", async () => {
    const res = await request(app().app).get('/sign-out');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/status/200');
    expect(cookies(res)).toEqual(['session=; Max-Age=0; Path=/', 'remember=; Max-Age=0; Path=/']);
  });

  test('an in-place navigation is told where to go (204 and the path in the header), with the cookies', async () => {
    const res = await request(app().app).get('/sign-out').set(NAVIGATION);
    expect(res.status).toBe(204);
    expect(res.headers[NAVIGATION_REDIRECT_HEADER]).toBe('/status/200');
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
    expect(cookies(res)).toEqual(['session=; Max-Age=0; Path=/', 'remember=; Max-Age=0; Path=/']);
    expectSecurityHeaders(res);
  });

  test('thrown while the page renders, it is an error like any other: the 500 page and one error line, no redirect', async () => {
    const { app: served, logs } = buildApp([
      defineRoute({
        path: '/renders-a-redirect',
        component: () => redirect('/status/200'),
      }),
    ]);
    const res = await request(served).get('/renders-a-redirect');
    expect(res.status).toBe(500);
    expect(res.headers.location).toBeUndefined();
    const errors = errorLines(logs);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ err: expect.objectContaining({ name: 'Redirect' }) });
  });

  test("from the app's getLoadContext too, before any load runs", async () => {
    const hydrating = asHydrating(pages);
    const { app: served, logs } = buildApp(hydrating.routes, {
      assets: hydrating.assets,
      getLoadContext: ({ cookies }) => (cookies.session !== undefined ? {} : redirect('/sign-in', { headers: { 'Set-Cookie': 'next=/status/200; Path=/' } })),
    });
    const res = await request(served).get('/status/200');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/sign-in');
    expect(cookies(res)).toEqual(['next=/status/200; Path=/']);
    expect(errorLines(logs)).toEqual([]);
    expect((await request(served).get('/status/200').set('Cookie', 'session=1')).status).toBe(200);
  });

  test.each([
    ['the document', 301, {}],
    ['an in-place navigation', 204, NAVIGATION],
  ] as const)('with a Cache-Control of its own, it varies by the navigation headers: %s gets %i', async (_case, status, extra) => {
    const res = await request(app().app).get('/moved-for-a-minute').set(extra);
    expect(res.status).toBe(status);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    // A kept redirect must answer neither the document's request nor the navigation runtime's for the other.
    expect(res.headers.vary ?? '').toContain(NAVIGATION_HEADER);
    expect(res.headers.vary ?? '').toContain(NAVIGATION_SCOPE_HEADER);
  });

  test('HEAD gets the same redirect', async () => {
    const res = await request(app().app).head('/go?to=/status/200');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/status/200');
  });
});

describe('an action answers in the same shapes', () => {
  function post(fields: Record<string, string>, extra: Record<string, string> = {}): request.Test {
    return request(app().app).post('/order').set('Sec-Fetch-Site', 'same-origin').set(extra).type('form').send(fields);
  }

  test("data(value, init): the page again with the action's status, cookie and actionData, and load's headers", async () => {
    const res = await post({ kind: 'conflict' });
    expect(res.status).toBe(409);
    expect(res.text).toContain('{&quot;saved&quot;:false}');
    expect(res.headers['x-load']).toBe('yes');
    expect(cookies(res)).toContain('flash=conflict; Path=/');
    expectSecurityHeaders(res);
  });

  test("the action's status wins over load's, and its cookie joins load's", async () => {
    const res = await request(app().app).post('/receipt').set('Sec-Fetch-Site', 'same-origin').type('form').send({ kind: 'conflict' });
    expect(res.status).toBe(409);
    expect(cookies(res)).toEqual(expect.arrayContaining(['a=1; Path=/', 'b=2; Path=/']));
  });

  test("a plain value keeps load's status and cookie", async () => {
    const res = await request(app().app).post('/receipt').set('Sec-Fetch-Site', 'same-origin').type('form').send({ kind: 'plain' });
    expect(res.status).toBe(203);
    expect(res.text).toContain('{&quot;saved&quot;:true}');
    expect(cookies(res)).toContain('a=1; Path=/');
  });

  test('a plain value still shows the page with 200', async () => {
    const res = await post({ kind: 'plain' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('{&quot;saved&quot;:true}');
  });

  test('redirect() keeps 303 by default, and takes a status', async () => {
    expect((await post({ kind: 'with-cookie' })).status).toBe(303);
    const temporary = await post({ kind: 'temporary' });
    expect(temporary.status).toBe(307);
    expect(temporary.headers.location).toBe('/status/200');
  });

  test("redirect()'s headers go along, on the 303 and on the in-place 204", async () => {
    const plain = await post({ kind: 'with-cookie' });
    expect(plain.headers.location).toBe('/status/200');
    expect(cookies(plain)).toEqual(['flash=saved; Path=/']);
    const inPlace = await post({ kind: 'with-cookie' }, NAVIGATION);
    expect(inPlace.status).toBe(204);
    expect(inPlace.headers[NAVIGATION_REDIRECT_HEADER]).toBe('/status/200');
    expect(cookies(inPlace)).toEqual(['flash=saved; Path=/']);
  });
});

describe('a page a shared cache may keep', () => {
  test.each(['public, max-age=60', 'max-age=0, s-maxage=60', 'S-MAXAGE=30', 'Public'])(
    'Cache-Control: %s is sent as given, with no form token in cookie, field or data',
    async (cc) => {
      const { app: served, logs } = app();
      const res = await request(served).get(`/cache?${new URLSearchParams({ cc })}`);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe(cc);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.text).toContain('<form method="post">');
      expect(res.text).not.toContain('name="_csrf"');
      expect(pageDataOf(res.text)).not.toHaveProperty('formToken');
      // The document and the navigation data live at one address: caches must tell them apart.
      expect(res.headers.vary).toContain(NAVIGATION_HEADER);
      expect(res.headers.vary).toContain(NAVIGATION_SCOPE_HEADER);
      expectSecurityHeaders(res);
      expect(errorLines(logs)).toEqual([]);
    },
  );

  test('the same holds for its in-place navigation data', async () => {
    const res = await request(app().app)
      .get(`/cache?${new URLSearchParams({ cc: 'public, max-age=60' })}`)
      .set(NAVIGATION);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(navigationDataOf(res.text, 'n1')).not.toHaveProperty('formToken');
    expect(res.headers.vary).toContain(NAVIGATION_HEADER);
    expect(res.headers.vary).toContain(NAVIGATION_SCOPE_HEADER);
  });

  test('a private Cache-Control is sent as given and keeps the form token', async () => {
    const res = await request(app().app).get(`/cache?${new URLSearchParams({ cc: 'private, max-age=60' })}`);
    expect(res.headers['cache-control']).toBe('private, max-age=60');
    expect(cookies(res).filter((cookie) => cookie.startsWith('csrf='))).toHaveLength(1);
    expect(res.text).toContain('name="_csrf"');
  });

  test('a cookie on it is refused: the 500 page, no cookie sent, one error line saying why', async () => {
    for (const extra of [{}, NAVIGATION]) {
      const { app: served, logs } = app();
      const res = await request(served).get('/cache-cookie').set(extra);
      expect(res.status).toBe(500);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.headers['cache-control']).toBe(NO_STORE);
      const errors = errorLines(logs);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ route: '/cache-cookie' });
      expect(JSON.stringify(errors[0])).toContain('cannot set a cookie');
      // The cookie's value is never logged.
      expect(JSON.stringify(logs)).not.toContain('session=abc');
    }
  });

  test("a cookie the app's getLoadContext set on the response is refused too", async () => {
    const hydrating = asHydrating(pages);
    const { app: served, logs } = buildApp(hydrating.routes, {
      assets: hydrating.assets,
      getLoadContext: ({ responseHeaders }) => {
        responseHeaders.append('Set-Cookie', 'seen=1; Path=/');
        return {};
      },
    });
    const res = await request(served).get(`/cache?${new URLSearchParams({ cc: 'public, max-age=60' })}`);
    expect(res.status).toBe(500);
    const errors = errorLines(logs);
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain('cannot set a cookie');
  });
});
