import { request as httpRequest } from 'node:http';
import request from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { buildApp, delay, errorLines, LEVEL, waitFor } from '../support/build-app.ts';
import { close, DESKTOP_CHROME, getTimed, listen } from '../support/http-client.ts';
import { fixtureRoutes } from '../support/pages.tsx';
import type { Server } from 'node:http';

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(close));
});

async function serve(...args: Parameters<typeof buildApp>) {
  const built = buildApp(...args);
  const { server, origin } = await listen(built.app);
  servers.push(server);
  return { ...built, server, origin };
}

describe('streaming', () => {
  test('sends the shell before a delayed boundary resolves, then streams its content in', async () => {
    const { origin } = await serve(fixtureRoutes(300));
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
    const { origin } = await serve(fixtureRoutes(200));
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
    const { app } = buildApp(fixtureRoutes());
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
    const { origin } = await serve(fixtureRoutes(200));
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
});

describe('embedded page data', () => {
  test('cannot close the script element, open a comment or break a line, and round-trips exactly', async () => {
    // Data is embedded only for pages that hydrate, so give the hostile route a client entry.
    const { app: hydrated } = buildApp(
      fixtureRoutes().map((route) => (route.path === '/hostile-data' ? { ...route, page: 'fixture' } : route)),
      { assets: { dir: '/nonexistent', pages: new Map([['fixture', { script: '/assets/fixture.js', preloads: [] }]]) } },
    );
    const res = await request(hydrated).get('/hostile-data');
    expect(res.status).toBe(200);

    const match = /<script id="__PAGE_DATA__" type="application\/json" nonce="[^"]+">([^]*?)<\/script>/.exec(res.text);
    if (match?.[1] === undefined) throw new Error('no data script');
    const embedded = match[1];
    expect(embedded).not.toMatch(/<|>|\u2028|\u2029/);
    expect(res.text).not.toContain('<script>window.__pwned');
    expect(JSON.parse(embedded)).toEqual({
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
    const { origin, logs } = await serve(fixtureRoutes(), { renderTimeoutMs: 150 });
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

  test('a render that times out before its shell is ready ends in the 500 page', async () => {
    const { app, logs } = buildApp(
      [
        {
          path: '/slow-load',
          component: () => null,
          load: () => new Promise((resolve) => setTimeout(resolve, 5_000)),
        },
      ],
      { renderTimeoutMs: 50 },
    );
    const res = await request(app).get('/slow-load');
    expect(res.status).toBe(500);
    expect(errorLines(logs)).toHaveLength(1);
  });
});

describe('client disconnects', () => {
  test('abort the render and are logged as an abort at info, never as an error', async () => {
    const { origin, logs } = await serve(fixtureRoutes(), { renderTimeoutMs: 30_000 });
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

  test('is cleared however the request ends: streamed, failed, status page or disconnect', async () => {
    // A long timeout: a timer left behind would still be pending when we count.
    const { origin, logs } = await serve(fixtureRoutes(30), { renderTimeoutMs: 60_000 });
    await getTimed(`${origin}/users/1`);
    await delay(50);
    const before = pendingTimers();

    for (const path of ['/slow', '/boundary-error', '/throw-in-load', '/throw-in-render', '/status-in-shell/forbidden', '/status-in-load/not-found']) {
      await getTimed(`${origin}${path}`, { 'User-Agent': DESKTOP_CHROME });
    }
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
  const assets = { dir: '/nonexistent', pages: new Map([['fixture', { script: '/assets/f.js', preloads: [] }]]) };
  const hydrated = fixtureRoutes().map((route) => ({ ...route, page: 'fixture' }));

  test('is announced in the page data only by a development server', async () => {
    const development = await request(buildApp(hydrated, { assets, development: true }).app).get('/users/1');
    const production = await request(buildApp(hydrated, { assets }).app).get('/users/1');
    expect(development.text).toContain('"development":true');
    expect(production.text).not.toContain('"development"');
  });
});
