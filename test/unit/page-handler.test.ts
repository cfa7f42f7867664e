import { request as httpRequest } from 'node:http';
import { use } from 'react';
import request from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { asHydrating, buildApp, delay, errorLines, LEVEL, waitFor } from '../support/build-app.ts';
import { clientRoutes } from '../../server/render/client-routes.ts';
import { dataScripts, inlineScripts, pageDataOf, routeTableOf } from '../support/page-data-scripts.ts';
import { closeTestServers, DESKTOP_CHROME, getTimed, listenForTest } from '../support/http-client.ts';
import { unitRoutes } from '../support/pages.tsx';

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

afterEach(closeTestServers);

async function serve(...args: Parameters<typeof buildApp>) {
  const built = buildApp(...args);
  const { server, origin } = await listenForTest(built.app);
  return { ...built, server, origin };
}

/** `promise`, or a failure naming `what` once `ms` have passed: a hang fails fast and says so. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** HEAD with the given user agent; resolves when the answer has ended. */
function head(url: string, userAgent: string): Promise<{ status: number; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'HEAD', agent: false, headers: { 'User-Agent': userAgent } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'] }));
    });
    req.on('error', reject);
    req.end();
  });
}

const DIGEST_ON_PAGE = /Digest: ([A-Za-z0-9_-]+)/;

/** Never settles: a shell that `use`s it can never be ready. */
const forever = new Promise<never>(() => undefined);

function BlockedShell(): never {
  use(forever);
  throw new Error('unreachable: use() of a pending promise suspends');
}

/** Pages whose render outlasts any timeout, before the shell. */
const neverReady = [
  { path: '/slow-load', component: () => null, load: () => forever },
  { path: '/blocked-shell', component: BlockedShell },
];

describe('streaming', () => {
  test('sends the shell before a delayed boundary resolves, then streams its content in', async () => {
    const { origin } = await serve(unitRoutes(300));
    const res = await getTimed(`${origin}/slow`, { 'User-Agent': DESKTOP_CHROME });

    expect(res.status).toBe(200);
    const shell = res.chunks.findIndex((chunk) => chunk.text.includes('SHELL-HEADING'));
    const content = res.chunks.findIndex((chunk) => chunk.text.includes('SLOW-CONTENT-ARRIVED'));
    expect(shell).toBeGreaterThanOrEqual(0);
    expect(content).toBeGreaterThan(shell);
    const shellChunk = res.chunks[shell];
    const contentChunk = res.chunks[content];
    if (shellChunk === undefined || contentChunk === undefined) throw new Error('chunks missing');
    // The shell carries the fallback and arrives well before the boundary's 300 ms delay.
    expect(shellChunk.text).toContain('LOADING-FALLBACK');
    expect(contentChunk.at - shellChunk.at).toBeGreaterThan(200);
  });

  test('sends crawlers the whole document at once', async () => {
    const { origin } = await serve(unitRoutes(200));
    const res = await getTimed(`${origin}/slow`, { 'User-Agent': GOOGLEBOT });

    expect(res.status).toBe(200);
    const first = res.chunks[0];
    if (first === undefined) throw new Error('no body');
    // The first bytes already hold the resolved content, not a fallback waiting for it.
    expect(first.text).toContain('SHELL-HEADING');
    expect(first.text).toContain('SLOW-CONTENT-ARRIVED');
    expect(res.body).not.toContain('LOADING-FALLBACK');
    expect(res.body).toMatch(/<\/html>$/);
  });

  test('sets the headers of rendered HTML', async () => {
    const { app } = buildApp(unitRoutes());
    const res = await request(app).get('/users/7');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-cache, no-store, max-age=0, must-revalidate');
    expect(res.headers['x-accel-buffering']).toBe('no');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.text).toContain('<title>User · React Stream Shell</title>');
    expect(res.text).toContain('{&quot;id&quot;:&quot;7&quot;}');
  });

  test('answers HEAD on a page with the GET status and headers and no body', async () => {
    const { origin } = await serve(unitRoutes(200));
    const res = await new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
      const req = httpRequest(`${origin}/slow`, { method: 'HEAD' }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'], body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(res).toEqual({ status: 200, type: 'text/html; charset=utf-8', body: '' });
  });

  test('answers HEAD once the shell is ready, not when the render timeout stops a page that never settles', async () => {
    const { origin, logs } = await serve(unitRoutes(), { pages: { renderTimeoutMs: 2_000 } });
    const started = performance.now();
    const res = await within(3_000, 'HEAD /hang', head(`${origin}/hang`, DESKTOP_CHROME));
    const took = performance.now() - started;

    expect(res).toEqual({ status: 200, type: 'text/html; charset=utf-8' });
    // Node would send no body anyway; what the app controls is when the answer ends.
    expect(took).toBeLessThan(400);
    await waitFor(() => logs.some((line) => line.msg === 'request completed'));
    expect(logs.filter((line) => line.msg === 'render timed out')).toEqual([]);
    expect(logs.filter((line) => line.level >= LEVEL.warn)).toEqual([]);
  });
});

describe('embedded page data', () => {
  test("points to the app's route table for navigation, the same module for every page", async () => {
    const { routes, assets } = asHydrating(unitRoutes().filter((route) => route.path === '/' || route.path === '/users/:id'));
    const { app } = buildApp(routes, { assets });
    const expected = clientRoutes(routes, assets);
    expect(expected.map((route) => route.script)).toEqual(['/assets/fixture.js', '/assets/fixture.js']);
    const urls = new Set<unknown>();
    for (const path of ['/', '/users/7']) {
      const res = await request(app).get(path);
      expect(res.status).toBe(200);
      urls.add(Reflect.get(Object(pageDataOf(res.text)), 'navigation'));
      expect(await routeTableOf(app, res.text)).toEqual(expected);
      // Its URL is in the page's one data script, after the page's own data.
      expect(dataScripts(res.text)).toHaveLength(1);
    }
    expect(urls.size).toBe(1);
  });

  test('cannot close the script element, open a comment or break a line, and round-trips exactly', async () => {
    // Data is embedded only for pages that hydrate, so give the hostile route a client entry.
    const { routes, assets } = asHydrating(unitRoutes().filter((route) => route.path === '/hostile-data'));
    const res = await request(buildApp(routes, { assets }).app).get('/hostile-data');
    expect(res.status).toBe(200);

    const scripts = inlineScripts(res.text);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).not.toMatch(/<|\u2028|\u2029/);
    expect(res.text).not.toContain('<script>window.__pwned');
    expect(pageDataOf(res.text)).toMatchObject({
      data: {
        html: '</script><script>window.__pwned = 1</script>',
        comment: '<!--<script>',
        separators: 'line\u2028para\u2029end',
        amp: 'a&b',
      },
      params: {},
    });
  });
});

describe('render timeout', () => {
  test('ends a response whose boundary never resolves, and logs a warning, not an error', async () => {
    const { origin, logs } = await serve(unitRoutes(), { pages: { renderTimeoutMs: 150 } });
    const started = performance.now();
    const res = await getTimed(`${origin}/hang`, { 'User-Agent': DESKTOP_CHROME });
    const took = performance.now() - started;

    expect(res.status).toBe(200);
    expect(res.body).toContain('SHELL-HEADING');
    expect(res.body).not.toContain('SLOW-CONTENT-ARRIVED');
    expect(res.body).toMatch(/<\/html>/);
    expect(took).toBeLessThan(5_000);
    expect(logs.some((line) => line.msg === 'render timed out' && line.level === LEVEL.warn)).toBe(true);
    expect(errorLines(logs)).toEqual([]);
  });

  test('sends a crawler the whole document when the timeout fires, pending boundaries as their fallbacks', async () => {
    const { origin, logs } = await serve(unitRoutes(), { pages: { renderTimeoutMs: 300 } });
    const started = performance.now();
    const res = await within(3_000, 'Googlebot on /hang', getTimed(`${origin}/hang`, { 'User-Agent': GOOGLEBOT }));
    const took = performance.now() - started;

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    // Still one document at once: the first bytes hold the shell and the boundary's fallback.
    expect(res.chunks[0]?.text).toContain('SHELL-HEADING');
    expect(res.chunks[0]?.text).toContain('LOADING-FALLBACK');
    expect(res.body).not.toContain('SLOW-CONTENT-ARRIVED');
    expect(res.body).toMatch(/<\/html>$/);
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(1_000);
    const problems = logs.filter((line) => line.level >= LEVEL.warn);
    expect(problems).toEqual([expect.objectContaining({ level: LEVEL.warn, msg: 'render timed out', route: '/hang', timeoutMs: 300 })]);
  });

  test.each([
    ['a load', '/slow-load'],
    ['a shell', '/blocked-shell'],
  ])('%s that outlasts the timeout is one error line carrying the digest of the 500 page', async (_what, path) => {
    const { origin, logs } = await serve(neverReady, { pages: { renderTimeoutMs: 100 } });
    const res = await within(3_000, path, getTimed(`${origin}${path}`, { 'User-Agent': DESKTOP_CHROME }));
    expect(res.status).toBe(500);
    const digest = DIGEST_ON_PAGE.exec(res.body)?.[1];
    expect(digest).toEqual(expect.any(String));
    await waitFor(() => logs.some((line) => line.msg === 'request completed'));

    // One event, one line: no warning before the error line.
    const problems = logs.filter((line) => line.level >= LEVEL.warn);
    expect(problems).toEqual([
      expect.objectContaining({
        level: LEVEL.error,
        digest,
        route: path,
        err: expect.objectContaining({ name: 'RenderTimeoutError', message: 'The render did not finish within 100 ms' }),
      }),
    ]);
  });

  test('a render that times out before its shell is ready ends in the 500 page', async () => {
    const { app, logs } = buildApp(
      [
        {
          path: '/slow-load',
          component: () => null,
          load: () => new Promise((resolve) => setTimeout(resolve, 5_000)),
        },
      ],
      { pages: { renderTimeoutMs: 50 } },
    );
    const res = await request(app).get('/slow-load');
    expect(res.status).toBe(500);
    expect(errorLines(logs)).toHaveLength(1);
  });
});

describe('client disconnects', () => {
  test('abort the render and are logged as an abort at info, never as an error', async () => {
    const { origin, logs } = await serve(unitRoutes(), { pages: { renderTimeoutMs: 30_000 } });
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${origin}/hang`, { headers: { 'User-Agent': DESKTOP_CHROME } }, (res) => {
        res.once('data', () => {
          // The shell arrived; go away while the boundary is still pending.
          req.destroy();
          resolve();
        });
      });
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      req.end();
    });
    await waitFor(() => logs.some((line) => line.msg === 'request aborted'));
    await delay(20);

    const abort = logs.find((line) => line.msg === 'render aborted: client disconnected');
    expect(abort).toMatchObject({ level: LEVEL.info, route: '/hang' });
    expect(logs.find((line) => line.msg === 'request aborted')).toMatchObject({ level: LEVEL.info, path: '/hang' });
    expect(errorLines(logs)).toEqual([]);
    expect(logs.filter((line) => line.level >= LEVEL.warn)).toEqual([]);
  });
});

describe('the render timer', () => {
  function pendingTimers(): number {
    return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
  }

  test('is cleared however the request ends: streamed, failed, status page, HEAD, crawler or disconnect', async () => {
    // A long timeout: a timer left behind would still be pending when we count.
    const { origin, logs } = await serve(unitRoutes(30), { pages: { renderTimeoutMs: 60_000 } });
    await getTimed(`${origin}/users/1`);
    await delay(50);
    const before = pendingTimers();

    for (const path of ['/slow', '/boundary-error', '/throw-in-load', '/throw-in-render', '/status-in-shell/forbidden', '/status-in-load/not-found']) {
      await getTimed(`${origin}${path}`, { 'User-Agent': DESKTOP_CHROME });
    }
    await head(`${origin}/hang`, DESKTOP_CHROME);
    await getTimed(`${origin}/slow`, { 'User-Agent': GOOGLEBOT });
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${origin}/hang`, { headers: { 'User-Agent': DESKTOP_CHROME } }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
      req.end();
    });
    await waitFor(() => logs.some((line) => line.msg === 'request aborted'));
    await delay(100);
    expect(pendingTimers()).toBeLessThanOrEqual(before);
  });
});

describe('development mode for the client', () => {
  const { routes: hydrated, assets } = asHydrating(unitRoutes());

  test('is announced in the page data only by a development server', async () => {
    const development = await request(buildApp(hydrated, { assets, development: true }).app).get('/users/1');
    const production = await request(buildApp(hydrated, { assets }).app).get('/users/1');
    expect(pageDataOf(development.text)).toMatchObject({ development: true });
    expect(pageDataOf(production.text)).not.toHaveProperty('development');
  });
});
