import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineApp } from '../../server/index.ts';
import type { ClientAssets } from '../../server/render/client-assets.ts';
import { createTestApp } from '../../server/testing/index.ts';
import { data, defineRoute, layout, route, Outlet, useLoaderData, type LayoutModule, type LoadContext, type PageModule } from '../../shared/index.ts';
import { close, listen } from '../support/http-client.ts';
import { navigationDataOf, navigationLines } from '../support/navigation-data-lines.ts';
import { rawRequest } from '../support/raw-http.ts';
import { routeTableOf } from '../support/page-data-scripts.ts';

/**
 * A 404 inside the app's layouts (docs/status-pages.md#a-404-inside-the-apps-layouts): a layout's
 * `notFound` page shows in its frame for a GET or HEAD of an address no route has, while JSON
 * clients, other methods and the framework's own addresses keep the plain 404.
 */

function frameLoad() {
  return { who: 'Ada' };
}

function Frame() {
  const { who } = useLoaderData<typeof frameLoad>();
  return (
    <div className="frame">
      <header>FRAME for {who}</header>
      <Outlet />
    </div>
  );
}

const root: LayoutModule<{ readonly who: string }> = { default: Frame, load: frameLoad };

function missingLoad({ params }: LoadContext) {
  return data({ path: params.path ?? '' }, { headers: { 'X-Missing': 'yes' } });
}

function Missing() {
  const { path } = useLoaderData<typeof missingLoad>();
  return <p className="missing">MISSING {path}</p>;
}

const missing: PageModule<{ readonly path: string }> = {
  default: Missing,
  load: missingLoad,
  head: { title: 'Nothing here' },
};

function Home() {
  return <p>HOME</p>;
}

const routes = [layout(root, [defineRoute({ path: '/', component: Home })], { id: 'root', notFound: missing })];
const { app } = createTestApp(defineApp({ routes }));
const NAVIGATION = { 'X-Navigation': 'data', 'X-Navigation-Scope': 'n3', Accept: 'application/x-ndjson, application/json;q=0.9' };
const PLAIN_404 = '<h1>404</h1><h2>This page could not be found.</h2>';

describe("a layout's not-found page", () => {
  test('an unknown address renders the page inside the layout with 404, its load given the path', async () => {
    const res = await request(app).get('/no/such/page').expect(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['x-missing']).toBe('yes');
    expect(res.headers.allow).toBeUndefined();
    expect(res.text).toMatch(/^<!DOCTYPE html><html lang="en">/);
    expect(res.text).toContain('<title>Nothing here · ');
    expect(res.text).toContain('<meta name="robots" content="noindex"/>');
    expect(res.text).toMatch(/<div class="frame"><header>FRAME for <!-- -->Ada<\/header><p class="missing">MISSING <!-- -->no\/such\/page<\/p><\/div>/);
    expect(res.text).not.toContain(PLAIN_404);
  });

  test('HEAD has the same status and headers, and no body', async () => {
    const get = await request(app).get('/nowhere');
    const head = await request(app).head('/nowhere').expect(404);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['x-missing']).toBe('yes');
    expect(head.text ?? '').toBe('');
  });

  test('an in-place navigation there gets the page as data, with 404', async () => {
    const res = await request(app).get('/gone').set(NAVIGATION).expect(404);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const [meta] = navigationLines(res.text);
    expect(meta).toMatchObject({ route: '/{*path}', head: { title: expect.stringMatching(/^Nothing here · /) } });
    expect(JSON.stringify(meta)).toContain('"content":"noindex"');
    // Without a client build the page ships no code, so the data stays on the server (the browser test sees it there).
    expect(navigationDataOf(res.text, 'n3')).toMatchObject({ params: { path: 'gone' } });
  });

  test('a client that prefers JSON gets the JSON 404', async () => {
    const res = await request(app).get('/nowhere').set('Accept', 'application/json').expect(404);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({ status: 404, message: 'This page could not be found.' });
    expect(res.headers['x-missing']).toBeUndefined();
  });

  test('any other method on an unknown address is the plain 404, never 405; a page keeps its 405', async () => {
    for (const method of ['post', 'put', 'delete', 'patch', 'options'] as const) {
      const res = await request(app)[method]('/nowhere');
      expect(res.status, method).toBe(404);
      expect(res.headers.allow, method).toBeUndefined();
      if (method !== 'options') expect(res.text, method).toContain(PLAIN_404);
    }
    const post = await request(app).post('/').expect(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });

  test("the framework's addresses are never caught: a missing /assets/x.js, any case, telemetry", async () => {
    for (const path of ['/assets/x.js', '/ASSETS/x.css', '/_telemetry/vitals']) {
      const res = await request(app).get(path).expect(404);
      expect(res.text, path).toContain(PLAIN_404);
      expect(res.text, path).not.toContain('FRAME');
    }
  });

  test('a route of the table still answers first, and a table with two notFound pages is refused', async () => {
    expect((await request(app).get('/').expect(200)).text).toContain('HOME');
    const twice = [layout(root, [layout(root, [defineRoute({ path: '/', component: Home })], { id: 'inner', notFound: missing })], { id: 'outer', notFound: missing })];
    expect(() => createTestApp(defineApp({ routes: twice }))).toThrow('Layouts "outer" and "inner" both name a notFound page');
  });

  test('the hostile-request corpus gets no 5xx, no stack and no error line from an app with a not-found page', async () => {
    const corpus: readonly { readonly name: string; readonly raw: string }[] = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'support', 'hostile-corpus.json'), 'utf8'));
    const { app: own, logs } = createTestApp(defineApp({ routes }));
    const { server, origin } = await listen(own, { headersTimeoutMs: 5_000, requestTimeoutMs: 10_000 });
    try {
      for (const entry of corpus) {
        const res = await rawRequest(Number(new URL(origin).port), entry.raw);
        expect(res.status, entry.name).toBeLessThan(500);
        expect(res.body, entry.name).not.toMatch(/\n\s+at .+:\d+:\d+/);
      }
    } finally {
      await close(server);
    }
    expect(logs.filter((line) => line.level >= 50)).toEqual([]);
  });

  test("a not-found page whose load throws is the 500 page with its line's digest, as any page's", async () => {
    const broken: PageModule = {
      default: Missing,
      load: () => {
        throw new Error('not-found page failed');
      },
    };
    const { app: own, logs } = createTestApp(defineApp({ routes: [layout(root, [defineRoute({ path: '/', component: Home })], { id: 'root', notFound: broken })] }));
    const res = await request(own).get('/nowhere').expect(500);
    const digest = logs.find((line) => line.msg === 'server error')?.digest;
    expect(typeof digest).toBe('string');
    expect(res.text).toContain(`Digest: ${digest}`);
  });

  test("the browser's route table holds the page last, matching any address but the framework's", async () => {
    const code = (name: string) => ({ script: `/assets/${name}.js`, preloads: [], styles: [] });
    const assets: ClientAssets = {
      dir: '/nonexistent',
      routes: new Map([
        ['/', code('home')],
        ['/{*path}', code('missing')],
      ]),
      inlineStyles: new Map(),
    };
    const table = [layout(root, [route('/', { default: Home })], { id: 'root', notFound: missing })];
    const { app: built } = createTestApp(defineApp({ routes: table }), { assets });
    const home = await request(built).get('/').expect(200);
    const entries = await routeTableOf(built, home.text);
    const last = entries.at(-1);
    expect(last).toMatchObject({ script: '/assets/missing.js' });
    const pattern = new RegExp(String(Reflect.get(Object(last), 'source')), String(Reflect.get(Object(last), 'flags')));
    for (const path of ['/', '/no/such/page', '/assetsx', '/healthzz']) expect(pattern.test(path), path).toBe(true);
    for (const path of ['/assets/x.js', '/Assets/x.css', '/_telemetry/vitals', '/healthz', '/readyz/', '/favicon.ico', '/favicon.svg'])
      expect(pattern.test(path), path).toBe(false);
  });

  test('without notFound, an unknown address is the plain 404 page, as before', async () => {
    const { app: plain } = createTestApp(defineApp({ routes: [layout(root, [defineRoute({ path: '/', component: Home })], { id: 'root' })] }));
    expect((await request(plain).get('/nowhere').expect(404)).text).toContain(PLAIN_404);
  });
});
