import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { get, type IncomingHttpHeaders } from 'node:http';
import request from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { NAVIGATION_HEADER, NAVIGATION_SCOPE_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { data, redirect } from '../../shared/api/answers.ts';
import { defineRoute, route, type ActionContext, type LoadContext, type RouteDefinition } from '../../shared/api/route-definition.ts';
import { notFound } from '../../shared/api/status-helpers.ts';
import { asHydrating, buildApp, delay, errorLines, LEVEL, waitFor, type LogLine, type TestApp } from '../support/build-app.ts';
import { closeTestServers, DESKTOP_CHROME, getTimed, listenForTest } from '../support/http-client.ts';
import { routeTableOf } from '../support/page-data-scripts.ts';

/**
 * Resource routes (docs/responses.md): a route with no component answers with the `Response`
 * its `load` (or, for a POST, its action) returns: status, headers and a streamed body, with a
 * page's request context, log lines, status pages, digests, HEAD and render timeout.
 */

declare module '../../shared/api/route-definition.ts' {
  interface AppLoadContext {
    /** What this file's getLoadContext gives: a resource route sees it as a page would. */
    readonly tenant?: string;
  }
}

const NO_STORE = 'private, no-cache, no-store, max-age=0, must-revalidate';

/** An instance of a class: data JSON would write as its own fields only, refused. */
class Item {
  readonly id = 7;
}

/** A body the test feeds by hand; `cancelled` says whether the server let go of it. */
interface Fed {
  readonly stream: ReadableStream<Uint8Array>;
  push(text: string): void;
  end(): void;
  fail(error: Error): void;
  readonly cancelled: () => boolean;
}

function fed(): Fed {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    start(given) {
      controller = given;
    },
    cancel() {
      cancelled = true;
    },
  });
  const encoder = new TextEncoder();
  let open = true;
  return {
    stream,
    push: (text) => controller?.enqueue(encoder.encode(text)),
    end: () => {
      if (open && !cancelled) controller?.close();
      open = false;
    },
    fail: (error) => {
      controller?.error(error);
      open = false;
    },
    cancelled: () => cancelled,
  };
}

/** A file's bytes as a web stream, read a chunk at a time as the client reads them. */
async function fileStream(path: string): Promise<ReadableStream<Uint8Array>> {
  const handle = await open(path);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { bytesRead, buffer } = await handle.read({ buffer: new Uint8Array(4096) });
      if (bytesRead === 0) {
        await handle.close();
        controller.close();
      } else {
        controller.enqueue(buffer.subarray(0, bytesRead));
      }
    },
    cancel: () => handle.close(),
  });
}

let feeds: Fed[] = [];

const resources: RouteDefinition[] = [
  defineRoute({
    path: '/api/items/:id',
    load: ({ params, searchParams, cookies, context, requestId, request: { method } }: LoadContext) =>
      Response.json({ id: params.id, q: searchParams.get('q'), cookie: cookies.flavour ?? null, context, requestId, method }, { headers: { 'X-Api': 'items' } }),
  }),
  defineRoute({
    path: '/text',
    load: () => {
      const headers = new Headers({ 'Content-Type': 'text/plain; charset=utf-8' });
      headers.append('Set-Cookie', 'a=1; Path=/');
      headers.append('Set-Cookie', 'b=2; Path=/');
      return new Response('plain text', { status: 201, headers });
    },
  }),
  defineRoute({ path: '/file', load: async () => new Response(await fileStream(import.meta.filename), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } }) }),
  defineRoute({
    path: '/fed',
    load: () => {
      const body = fed();
      feeds.push(body);
      return new Response(body.stream, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
    },
  }),
  defineRoute({ path: '/missing', load: () => notFound() }),
  defineRoute({
    path: '/throws',
    load: () => {
      throw new TypeError('resource exploded: SECRET-RESOURCE-DETAIL');
    },
  }),
  defineRoute({ path: '/moved', load: () => redirect('/text', 301) }),
  defineRoute({ path: '/not-a-response', load: () => new Item() }),
  defineRoute({ path: '/network-error', load: () => Response.error() }),
  defineRoute({ path: '/returns-map', load: () => new Map([['id', 7]]) }),
  defineRoute({ path: '/returns-data-of-set', load: () => data(new Set([7]), 201) }),
  defineRoute({ path: '/returns-nothing-as-json', load: () => ({ toJSON: () => undefined }) }),
  // As an app without types could write them: what the types refuse.
  defineRoute({ path: '/returns-undefined', load: () => undefined as unknown as Response }),
  defineRoute({ path: '/returns-function', load: () => (() => 7) as unknown as Response }),
  defineRoute({ path: '/hangs', load: ({ signal }) => new Promise<Response>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))) }),
  defineRoute({
    path: '/framework-headers',
    load: () =>
      new Response('x', { headers: { 'Content-Security-Policy': 'default-src *', 'X-Frame-Options': 'ALLOWALL', 'X-Request-Id': 'forged', 'Content-Type': 'text/plain' } }),
  }),
  defineRoute({ path: '/created', load: () => new Response(null, { status: 201, headers: { Location: '/items/7' } }) }),
  defineRoute({ path: '/cached', load: () => new Response('x', { headers: { 'Cache-Control': 'public, max-age=300' } }) }),
  defineRoute({ path: '/cached-cookie', load: () => new Response('x', { headers: { 'Cache-Control': 'public, max-age=300', 'Set-Cookie': 'session=abc; Path=/' } }) }),
  defineRoute({
    path: '/webhook',
    load: () => Response.json({ hint: 'POST here' }),
    action: ({ body }: ActionContext) => (body.to === undefined ? Response.json({ received: body }, { status: 202 }) : redirect(String(body.to))),
  }),
  defineRoute({ path: '/wrong-action', load: () => new Response('get'), action: () => new Set(['saved']) }),
  // A module without a default export, as `app/routes.ts` names it: a resource route too.
  route('/feed.xml', { load: () => new Response('<rss/>', { headers: { 'Content-Type': 'application/rss+xml' } }) }),
];

function app(options: Parameters<typeof buildApp>[1] = {}): TestApp {
  return buildApp(resources, options);
}

afterEach(async () => {
  await closeTestServers();
  for (const body of feeds) body.end();
  feeds = [];
});

async function serve(built: TestApp): Promise<string> {
  const { origin } = await listenForTest(built.app);
  return origin;
}

/** The request's one completion line: `request completed`, or `request aborted` for an answer cut short. */
function completion(logs: readonly LogLine[]): LogLine | undefined {
  return logs.find((line) => line.msg === 'request completed' || line.msg === 'request aborted');
}

/** A GET that resolves when its connection ends, saying whether the body arrived whole. */
function getUntilClosed(url: string): Promise<{ readonly status: number; readonly headers: IncomingHttpHeaders; readonly body: string; readonly complete: boolean }> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        body += text;
      });
      res.on('error', () => undefined);
      res.on('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, complete: res.complete }));
    });
    req.on('error', reject);
  });
}

describe('a resource route answers with the Response its load returns', () => {
  test("JSON, with the route's request context, its headers, the security headers and the request id", async () => {
    const { app: served, logs } = app({ getLoadContext: () => ({ tenant: 'acme' }) });
    const res = await request(served).get('/api/items/42?q=blue').set('Cookie', 'flavour=mint');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['x-api']).toBe('items');
    expect(res.body).toEqual({ id: '42', q: 'blue', cookie: 'mint', context: { tenant: 'acme' }, requestId: res.headers['x-request-id'], method: 'GET' });
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['cache-control']).toBe(NO_STORE);
    // Whole at once, it goes with its head, its length counted, not chunked.
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)));
    expect(res.headers['transfer-encoding']).toBeUndefined();
    // One completion line, labelled with the route's pattern; nothing else.
    expect(logs).toEqual([expect.objectContaining({ msg: 'request completed', status: 200, route: '/api/items/:id', path: '/api/items/42' })]);
  });

  test('its status, and every Set-Cookie of its headers', async () => {
    const res = await request(app().app).get('/text');
    expect(res.status).toBe(201);
    expect(res.text).toBe('plain text');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });

  test("a file's stream, byte for byte", async () => {
    const res = await request(app().app).get('/file');
    expect(res.status).toBe(200);
    expect(res.text).toBe(readFileSync(import.meta.filename, 'utf8'));
  });

  test('the body streams: what the route has written arrives before it has finished', async () => {
    const origin = await serve(app());
    const pending = getTimed(`${origin}/fed`);
    await waitFor(() => feeds.length === 1, 2_000, 'the route to start');
    feeds[0]?.push('FIRST ');
    await delay(300);
    feeds[0]?.push('SECOND');
    feeds[0]?.end();
    const res = await pending;
    expect(res.body).toBe('FIRST SECOND');
    expect(res.chunks[0]?.text).toBe('FIRST ');
    expect((res.chunks.at(-1)?.at ?? 0) - (res.chunks[0]?.at ?? 0)).toBeGreaterThan(200);
    // Its length was not known when its first bytes went.
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-length']).toBeUndefined();
  });

  test('HEAD: the status and headers, no body, and the body let go of', async () => {
    const { app: served } = app();
    const res = await request(served).head('/fed');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text ?? '').toBe('');
    await waitFor(() => feeds[0]?.cancelled() === true, 2_000, 'the body to be cancelled');
  });

  test('an in-place navigation gets the same answer: a resource has no page data', async () => {
    const res = await request(app().app)
      .get('/api/items/1')
      .set({ [NAVIGATION_HEADER]: 'data', [NAVIGATION_SCOPE_HEADER]: 'n1' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
  });

  test('a module without a default export, named with route(), is a resource route and ships no code', async () => {
    const res = await request(app().app).get('/feed.xml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml');
    expect(res.text).toBe('<rss/>');
    // In the browser's route table it has no script: links to it load it in full.
    const hydrating = asHydrating([defineRoute({ path: '/', component: () => <h1>Home</h1> })]);
    const withPage = buildApp([...hydrating.routes, ...resources], { assets: hydrating.assets }).app;
    const page = await request(withPage).get('/').set('User-Agent', DESKTOP_CHROME);
    const table = await routeTableOf(withPage, page.text);
    expect(table[0]).toHaveProperty('script');
    for (const entry of table.slice(1)) expect(entry).not.toHaveProperty('script');
  });
});

describe('a route with neither a component, a load nor an action', () => {
  test('stops the app from being built, naming the route', () => {
    const table: RouteDefinition[] = JSON.parse('[{"path":"/nothing"}]');
    expect(() => buildApp(table)).toThrow('Route /nothing has neither a component, a load nor an action');
  });
});

describe('what a resource route shares with pages', () => {
  test('notFound(): the 404 status page, as HTML or JSON', async () => {
    const { app: served, logs } = app();
    const html = await request(served).get('/missing');
    expect(html.status).toBe(404);
    expect(html.text).toContain('This page could not be found.');
    const json = await request(served).get('/missing').set('Accept', 'application/json');
    expect(json.body).toEqual({ status: 404, message: 'This page could not be found.' });
    expect(errorLines(logs)).toEqual([]);
  });

  test("a throw: the 500 page with a digest, and one error line with that digest and the route, never the error's message", async () => {
    const { app: served, logs } = app();
    const res = await request(served).get('/throws').set('Accept', 'application/json');
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain('SECRET-RESOURCE-DETAIL');
    const errors = errorLines(logs);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ digest: res.body.digest, route: '/throws', err: expect.objectContaining({ name: 'TypeError' }) });
  });

  test("redirect(): answered as load's, 301 here as asked", async () => {
    const res = await request(app().app).get('/moved');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/text');
    // Never cached, so nothing for a cache to tell apart by the navigation headers.
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.vary).toBeUndefined();
  });

  test.each([
    ['/not-a-response', 'it returned an instance of Item'],
    ['/network-error', 'it returned a Response that cannot be sent (Response.error(), or a body already read)'],
    ['/returns-map', 'it returned an instance of Map'],
    ['/returns-data-of-set', 'it returned data() of an instance of Set'],
    ['/returns-nothing-as-json', 'it returned an object whose toJSON() gives nothing JSON can write'],
    ['/returns-undefined', 'it returned undefined'],
    ['/returns-function', 'it returned function'],
  ])('%s: a load that returns neither a Response to send nor data is the 500 page, one error line saying what it returned', async (path, said) => {
    const { app: served, logs } = app();
    const res = await request(served).get(path);
    expect(res.status).toBe(500);
    const errors = errorLines(logs);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ route: path, err: expect.objectContaining({ name: 'NotAResponseError' }) });
    expect(JSON.stringify(errors[0])).toContain(`Route ${path} has no component, so its load must return a Response`);
    expect(JSON.stringify(errors[0])).toContain(said);
  });

  test('the render timeout bounds load: the 500 page, one error line naming RenderTimeoutError and the route', async () => {
    const { app: served, logs } = app({ pages: { renderTimeoutMs: 200 } });
    const res = await request(served).get('/hangs');
    expect(res.status).toBe(500);
    const errors = errorLines(logs);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ route: '/hangs', err: expect.objectContaining({ name: 'RenderTimeoutError' }) });
  });

  test('the render timeout bounds the delivery: a body still streaming is cut, and let go of, with one warn line', async () => {
    const built = app({ pages: { renderTimeoutMs: 300 } });
    const origin = await serve(built);
    const pending = getUntilClosed(`${origin}/fed`);
    await waitFor(() => feeds.length === 1, 2_000, 'the route to start');
    feeds[0]?.push('STARTED');
    const started = performance.now();
    const res = await pending;
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(res.status).toBe(200);
    expect(res.body).toBe('STARTED');
    expect(res.complete).toBe(false);
    await waitFor(() => feeds[0]?.cancelled() === true, 2_000, 'the body to be cancelled');
    await waitFor(() => completion(built.logs) !== undefined, 2_000, 'the completion line');
    expect(completion(built.logs)).toMatchObject({ msg: 'request aborted', route: '/fed', status: 200 });
    expect(built.logs.filter((line) => line.level >= LEVEL.warn)).toEqual([expect.objectContaining({ msg: 'render timed out', route: '/fed', timeoutMs: 300 })]);
    expect(built.logs.some((line) => line.msg === 'render aborted: client disconnected')).toBe(false);
  });

  test('a client that leaves: the body is let go of, and the log says so at info, with no error', async () => {
    const built = app({ pages: { renderTimeoutMs: 5_000 } });
    const origin = await serve(built);
    await new Promise<void>((resolve, reject) => {
      const req = get(`${origin}/fed`, { agent: false }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
      waitFor(() => feeds.length === 1, 2_000, 'the route to start').then(() => feeds[0]?.push('FIRST'), reject);
    });
    await waitFor(() => feeds[0]?.cancelled() === true, 2_000, 'the body to be cancelled');
    await waitFor(() => built.logs.some((line) => line.msg === 'render aborted: client disconnected'), 2_000, 'the abort line');
    expect(errorLines(built.logs)).toEqual([]);
  });

  test('an error in the body once it streams: the connection is cut, and one error line with a digest names the route', async () => {
    const built = app();
    const origin = await serve(built);
    const pending = getUntilClosed(`${origin}/fed`);
    await waitFor(() => feeds.length === 1, 2_000, 'the route to start');
    feeds[0]?.push('PART');
    await delay(50);
    feeds[0]?.fail(new Error('the disk went away'));
    const res = await pending;
    expect(res.body).toBe('PART');
    expect(res.complete).toBe(false);
    await waitFor(() => errorLines(built.logs).length > 0, 2_000, 'the error line');
    await delay(50);
    const errors = errorLines(built.logs);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ route: '/fed', digest: expect.any(String) });
    expect(built.logs.some((line) => line.msg === 'render aborted: client disconnected')).toBe(false);
  });
});

describe("a resource's headers", () => {
  test("never replace the framework's: one warn line names those left out", async () => {
    const { app: served, logs } = app();
    const res = await request(served).get('/framework-headers');
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).not.toContain('default-src *');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-request-id']).not.toBe('forged');
    // The body is the route's own: its type is too.
    expect(res.headers['content-type']).toBe('text/plain');
    expect(logs.filter((line) => line.level === LEVEL.warn)).toEqual([
      expect.objectContaining({ msg: 'app headers left out', route: '/framework-headers', headers: ['content-security-policy', 'x-frame-options', 'x-request-id'] }),
    ]);
  });

  test('a Location of its own is sent as given: a 201 names what it made', async () => {
    const { app: served, logs } = app();
    const res = await request(served).get('/created');
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe('/items/7');
    expect(logs.filter((line) => line.level >= LEVEL.warn)).toEqual([]);
  });

  test('a Cache-Control of its own is kept', async () => {
    const res = await request(app().app).get('/cached');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
  });

  test('a cookie on an answer a shared cache may keep is refused: the 500 page, no cookie', async () => {
    const { app: served, logs } = app();
    const res = await request(served).get('/cached-cookie');
    expect(res.status).toBe(500);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(errorLines(logs)).toHaveLength(1);
    expect(JSON.stringify(errorLines(logs)[0])).toContain('cannot set a cookie');
  });
});

describe('other methods on a resource route', () => {
  test("POST runs its action after the cross-site check, and answers with the action's Response", async () => {
    const { app: served } = app();
    const res = await request(served).post('/webhook').set('Sec-Fetch-Site', 'same-origin').send({ event: 'paid' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ received: { event: 'paid' } });
    const refused = await request(served).post('/webhook').set('Sec-Fetch-Site', 'cross-site').send({ event: 'paid' });
    expect(refused.status).toBe(403);
  });

  test("redirect() in a resource's action answers 303, as an action's", async () => {
    const res = await request(app().app).post('/webhook').set('Sec-Fetch-Site', 'same-origin').type('form').send({ to: '/text' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/text');
  });

  test('an action that returns no Response is the 500 page, one error line saying so', async () => {
    const { app: served, logs } = app();
    const res = await request(served).post('/wrong-action').set('Sec-Fetch-Site', 'same-origin').send({});
    expect(res.status).toBe(500);
    expect(JSON.stringify(errorLines(logs))).toContain('Route /wrong-action has no component, so its action must return a Response');
  });

  test('other methods: 405 with Allow naming POST where there is an action', async () => {
    const { app: served } = app();
    const put = await request(served).put('/webhook');
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD, POST');
    const post = await request(served).post('/text').set('Sec-Fetch-Site', 'same-origin');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });
});
