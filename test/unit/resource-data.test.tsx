import { request as httpRequest } from 'node:http';
import request from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { invalid } from '../../shared/api/action-helpers.ts';
import { data } from '../../shared/api/answers.ts';
import { defineRoute, type RouteDefinition } from '../../shared/api/route-definition.ts';
import { createCookieSessionStorage } from '../../server/sessions/cookie-session.ts';
import { buildApp, errorLines, type TestApp } from '../support/build-app.ts';
import { closeTestServers, listenForTest } from '../support/http-client.ts';

/**
 * Data from a resource route (docs/responses.md#data-from-a-resource-route): a `load` or an
 * action that returns a string or data rather than a `Response` is answered as
 * `new Response(string)` or `Response.json(value, init)` would be, byte for byte and header for
 * header, with `data()`'s status and headers, HEAD's length, and the 500 page for what is no data.
 */

const ITEMS = { items: [{ id: 'item-1', title: 'Café ✓', done: false, at: new Date(0) }], count: 1, note: null };
const TEXT = 'héllo ✓\n';
const NO_STORE = 'private, no-cache, no-store, max-age=0, must-revalidate';

const routes: RouteDefinition[] = [
  defineRoute({ path: '/as-data', load: () => ITEMS }),
  defineRoute({ path: '/as-response', load: () => Response.json(ITEMS) }),
  defineRoute({ path: '/as-text', load: () => TEXT }),
  defineRoute({ path: '/as-text-response', load: () => new Response(TEXT) }),
  defineRoute({
    path: '/value/:kind',
    load: ({ params }) => {
      const kind = params.kind ?? '';
      return kind in VALUES ? VALUES[kind as keyof typeof VALUES] : 'unknown';
    },
  }),
  defineRoute({ path: '/async', load: async () => ({ awaited: true }) }),
  defineRoute({
    path: '/made',
    load: () => data({ id: 7 }, { status: 201, headers: { 'X-Kind': 'made', 'Cache-Control': 'public, max-age=60', Vary: 'Accept-Language' } }),
  }),
  defineRoute({
    path: '/problem',
    load: () => data({ title: 'Out of stock' }, { status: 409, headers: { 'Content-Type': 'application/problem+json' } }),
  }),
  defineRoute({ path: '/length/right', load: () => data({ a: 1 }, { headers: { 'Content-Length': '7' } }) }),
  defineRoute({ path: '/length/wrong', load: () => data({ a: 1 }, { headers: { 'Content-Length': '8' } }) }),
  defineRoute({ path: '/length/none', load: () => data({ a: 1 }, { headers: { 'Content-Length': 'abc' } }) }),
  defineRoute({ path: '/public-cookie', load: () => data({ a: 1 }, { headers: { 'Cache-Control': 'public, max-age=60', 'Set-Cookie': 'theme=dark; Path=/' } }) }),
  defineRoute({ path: '/public', load: () => data({ a: 1 }, { headers: { 'Cache-Control': 'public, max-age=60' } }) }),
  defineRoute({ path: '/bigint', load: () => ({ big: 10n, secret: 'SECRET-DATA-DETAIL' }) }),
  defineRoute({
    path: '/post',
    load: () => 'post here',
    action: ({ body }) => {
      if (body.kind === 'invalid') return invalid({ name: 'required' }, { name: '' });
      if (body.kind === 'made') return data({ saved: body.name }, 201);
      return { saved: body.name };
    },
  }),
];

const VALUES = { null: null, number: 42, boolean: true, array: [1, 'a', null], bare: Object.assign(Object.create(null) as object, { a: 1 }) };

function app(): TestApp {
  return buildApp(routes);
}

afterEach(async () => {
  await closeTestServers();
});

/** A response's headers but those every answer makes anew (its date, its id, its nonce). */
function lasting(headers: Record<string, string>): Record<string, string> {
  const { date: _date, 'x-request-id': _id, 'content-security-policy': policy, ...rest } = headers;
  return { ...rest, 'content-security-policy': (policy ?? '').replace(/'nonce-[^']+'/, "'nonce-…'") };
}

/** HEAD over a plain connection: its status, its headers and whatever bytes came after the head. */
function head(url: string): Promise<{ readonly status: number; readonly headers: Record<string, unknown>; readonly bodyBytes: number }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'HEAD', agent: false }, (res) => {
      let bodyBytes = 0;
      res.on('data', (chunk: Buffer) => {
        bodyBytes += chunk.byteLength;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bodyBytes }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a resource route that returns data', () => {
  test('an object: the status, headers and bytes Response.json() would give', async () => {
    const { app: served, logs } = app();
    const answered = await request(served).get('/as-data');
    const asResponse = await request(served).get('/as-response');
    expect(answered.status).toBe(200);
    expect(answered.text).toBe(JSON.stringify(ITEMS));
    expect(answered.text).toBe(asResponse.text);
    expect(answered.headers['content-type']).toBe('application/json');
    expect(answered.headers['cache-control']).toBe(NO_STORE);
    // Sent whole, its length counted in bytes (the é and ✓ are more than one each), not chunked.
    expect(answered.headers['content-length']).toBe(String(Buffer.byteLength(answered.text)));
    expect(answered.headers['transfer-encoding']).toBeUndefined();
    expect(lasting(answered.headers)).toEqual(lasting(asResponse.headers));
    expect(answered.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(answered.headers['content-security-policy']).toContain("default-src 'self'");
    expect(answered.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // One completion line for each, labelled with the route's pattern; nothing else.
    expect(logs).toEqual([
      expect.objectContaining({ msg: 'request completed', status: 200, route: '/as-data' }),
      expect.objectContaining({ msg: 'request completed', status: 200, route: '/as-response' }),
    ]);
  });

  test("a string: text, as new Response(string) would send it, its length in UTF-8's bytes", async () => {
    const { app: served } = app();
    const answered = await request(served).get('/as-text');
    const asResponse = await request(served).get('/as-text-response');
    expect(answered.status).toBe(200);
    expect(answered.text).toBe(TEXT);
    expect(answered.headers['content-type']).toBe('text/plain;charset=UTF-8');
    expect(answered.headers['content-length']).toBe(String(Buffer.byteLength(TEXT)));
    expect(lasting(answered.headers)).toEqual(lasting(asResponse.headers));
  });

  test.each([
    ['null', 'null'],
    ['number', '42'],
    ['boolean', 'true'],
    ['array', '[1,"a",null]'],
    ['bare', '{"a":1}'],
  ])('%s: JSON', async (kind, json) => {
    const res = await request(app().app).get(`/value/${kind}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.text).toBe(json);
  });

  test('a promise of data, awaited', async () => {
    const res = await request(app().app).get('/async');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ awaited: true });
  });

  test("data(value, init): its status and headers, a Cache-Control of its own kept, and JSON's type", async () => {
    const res = await request(app().app).get('/made');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 7 });
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['x-kind']).toBe('made');
    expect(res.headers.vary).toBe('Accept-Language');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
  });

  test('a Content-Type of its own wins, as in Response.json()', async () => {
    const res = await request(app().app).get('/problem');
    expect(res.status).toBe(409);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(res.text)).toEqual({ title: 'Out of stock' });
  });

  test('a Content-Length of its own is sent when it is the body’s; any other is the 500 page, before anything is sent', async () => {
    const { app: served, logs } = app();
    const right = await request(served).get('/length/right');
    expect(right.status).toBe(200);
    expect(right.headers['content-length']).toBe('7');
    expect(right.text).toBe('{"a":1}');
    const wrong = await request(served).get('/length/wrong');
    expect(wrong.status).toBe(500);
    expect(wrong.text).not.toContain('{"a":1}');
    const none = await request(served).get('/length/none');
    expect(none.status).toBe(500);
    const errors = errorLines(logs);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ route: '/length/wrong', err: expect.objectContaining({ name: 'ContentLengthError' }) });
    expect(JSON.stringify(errors[0])).toContain('has Content-Length 8 where its data is 7 bytes');
    expect(errors[1]).toMatchObject({ route: '/length/none', err: expect.objectContaining({ name: 'ContentLengthError' }) });
  });

  test('HEAD: the status and headers a GET gets, its length, and no body', async () => {
    const built = app();
    const { origin } = await listenForTest(built.app);
    const got = await request(built.app).get('/as-data');
    const res = await head(`${origin}/as-data`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['content-length']).toBe(got.headers['content-length']);
    expect(res.bodyBytes).toBe(0);
  });

  test('a cookie on data a shared cache may keep is refused: the 500 page, no cookie', async () => {
    const { app: served, logs } = app();
    const res = await request(served).get('/public-cookie');
    expect(res.status).toBe(500);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(JSON.stringify(errorLines(logs))).toContain('cannot set a cookie');
  });

  test('data JSON cannot write (a BigInt): the 500 page with a digest, the error logged, never shown', async () => {
    const { app: served, logs } = app();
    const res = await request(served).get('/bigint').set('Accept', 'application/json');
    expect(res.status).toBe(500);
    expect(res.text).not.toContain('SECRET-DATA-DETAIL');
    expect(res.text).not.toContain('BigInt');
    const errors = errorLines(logs);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ route: '/bigint', digest: res.body.digest, err: expect.objectContaining({ name: 'TypeError' }) });
  });
});

describe('data from an action', () => {
  const post = (served: TestApp['app'], fields: Record<string, string>) => request(served).post('/post').set('Sec-Fetch-Site', 'same-origin').type('form').send(fields);

  test('a value: JSON, 200', async () => {
    const res = await post(app().app, { name: 'Ada' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body).toEqual({ saved: 'Ada' });
  });

  test("data(value, 201): that status; invalid(): 422 with its errors and values, as a page's action shows them", async () => {
    const { app: served } = app();
    const made = await post(served, { kind: 'made', name: 'Ada' });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ saved: 'Ada' });
    const refused = await post(served, { kind: 'invalid' });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ errors: { name: 'required' }, values: { name: '' } });
  });
});

describe('data for a request that carries a session cookie', () => {
  // The storage's name is what makes its cookie a session's (server/sessions/session-cookies.ts).
  createCookieSessionStorage({ cookie: { name: 'resource_data_session', secrets: ['s'.repeat(32)] } });

  test('asked to be public, it is private', async () => {
    const { app: served } = app();
    expect((await request(served).get('/public')).headers['cache-control']).toBe('public, max-age=60');
    const signedIn = await request(served).get('/public').set('Cookie', 'resource_data_session=x');
    expect(signedIn.headers['cache-control']).toBe('private, max-age=60');
  });
});
