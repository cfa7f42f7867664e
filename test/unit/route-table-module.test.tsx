import { pathToRegexp } from 'path-to-regexp';
import request from 'supertest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, test } from 'vitest';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { asHydrating, buildApp } from '../support/build-app.ts';
import { closeTestServers, DESKTOP_CHROME, getRaw, listenForTest } from '../support/http-client.ts';
import { inlineScripts, pageDataOf, routeTableOf } from '../support/page-data-scripts.ts';

/**
 * The route table for in-place navigation is a module of its own under /assets/
 * (server/render/route-table-module.ts), not a copy inside every document: a page carries its
 * URL, the navigation runtime fetches it at the first sign of use, caches keep it a year. Route paths are the
 * app's own, but a path is text like any other: one holding `</script>`, `<!--<script>` or a line
 * separator must reach the browser exactly and leave the document's scripts alone.
 */

const HOSTILE_PATHS = [
  '/a</script><script>window.__pwned=1</script>',
  // `!` is reserved by path-to-regexp: escaped, it is the literal character.
  '/b<\\!--<script>',
  '/c\u2028d\u2029e',
];

const home = defineRoute({ path: '/', component: () => <h1>Home</h1> });
const { routes, assets } = asHydrating([home, ...HOSTILE_PATHS.map((path) => defineRoute({ path, component: () => <h1>Odd</h1> }))]);
const patternOf = (path: string) => pathToRegexp(path, { sensitive: false, end: true, trailing: true }).regexp.source;

function tableUrlOf(html: string): string {
  const url: unknown = Reflect.get(Object(pageDataOf(html)), 'navigation');
  if (typeof url !== 'string') throw new Error('the page data names no route table');
  return url;
}

afterEach(closeTestServers);

describe('the route table module', () => {
  test('arrives intact, hostile route paths included, and the document holds none of it', async () => {
    const { app } = buildApp(routes, { assets });
    const res = await request(app).get('/').set('User-Agent', DESKTOP_CHROME);
    expect(res.status).toBe(200);
    const table = await routeTableOf(app, res.text);
    const sources = table.map((entry) => Reflect.get(Object(entry), 'source'));
    expect(sources).toEqual(['/', ...HOSTILE_PATHS].map(patternOf));
    expect(new RegExp(String(sources[1]), 'i').test('/a</script><script>window.__pwned=1</script>')).toBe(true);
    expect(new RegExp(String(sources[2]), 'i').test('/b<!--<script>')).toBe(true);
    expect(new RegExp(String(sources[3]), 'i').test('/c\u2028d\u2029e')).toBe(true);
    // Not in the document: no pattern, no hostile path, every script element whole.
    expect(res.text).not.toContain('pwned');
    expect(res.text).not.toContain('source');
    expect(res.text.match(/<script\b/g)?.length).toBe(res.text.match(/<\/script>/g)?.length);
  });

  test('is named in the page data and left out of the page loader: the navigation runtime fetches it on a first intent', async () => {
    const { app } = buildApp(routes, { assets });
    const res = await request(app).get('/').set('User-Agent', DESKTOP_CHROME).expect(200);
    const url = tableUrlOf(res.text);
    expect(url).toMatch(/^\/assets\/routes-[0-9a-f]{12}\.js$/);
    const loader = inlineScripts(res.text).find((script) => script.includes('modulepreload'));
    // The fixture's pages have no chunks of their own: the loader preloads nothing, starts the page's code.
    expect(loader).toContain('"/assets/fixture.js",[]');
    expect(loader).not.toContain(url);
  });

  test('is served as a content-hashed file: cached for a year, brotli and gzip, same URL on every instance, a new one for a new table', async () => {
    const first = buildApp(routes, { assets }).app;
    const url = tableUrlOf((await request(first).get('/').expect(200)).text);
    const plain = await request(first).get(url).set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const { origin } = await listenForTest(first);
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const packed = await getRaw(`${origin}${url}`, encoding);
      expect(packed.encoding).toBe(encoding);
      expect(packed.body.length).toBeLessThan(plain.text.length);
      expect(decode(packed.body).toString()).toBe(plain.text);
    }
    // Another instance of the same app: the same URL, so any instance answers it.
    const second = buildApp(routes, { assets }).app;
    expect(tableUrlOf((await request(second).get('/').expect(200)).text)).toBe(url);
    // A table with one route less is another file.
    const fewer = asHydrating([home]);
    const other = buildApp(fewer.routes, { assets: fewer.assets }).app;
    const otherUrl = tableUrlOf((await request(other).get('/').expect(200)).text);
    expect(otherUrl).not.toBe(url);
    await request(other).get(url).expect(404);
    expect(await routeTableOf(other, (await request(other).get('/').expect(200)).text)).toEqual([expect.objectContaining({ source: patternOf('/') })]);
  });

  test('leaves out a resource route with an action alone, so a form posted to it moves in place; one with a load stays, loaded in full', async () => {
    const signOut = defineRoute({ path: '/sign-out', action: () => new Response(null, { status: 204 }) });
    const feed = defineRoute({ path: '/feed.xml', load: () => new Response('<rss/>'), action: () => new Response(null, { status: 204 }) });
    const { app } = buildApp([...routes, signOut, feed], { assets });
    const res = await request(app).get('/').set('User-Agent', DESKTOP_CHROME).expect(200);
    const sources = (await routeTableOf(app, res.text)).map((entry) => Reflect.get(Object(entry), 'source'));
    expect(sources).toEqual(['/', ...HOSTILE_PATHS, '/feed.xml'].map(patternOf));
  });
});
