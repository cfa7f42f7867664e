import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { loadClientAssets } from '../../server/render/client-assets.ts';
import { routes } from '../support/fixture-server-routes.tsx';
import { FIXTURE_CLIENT_DIR } from '../support/fixture-server-build.ts';
import { buildApp } from '../support/build-app.ts';
import { close, getRaw, listen } from '../support/http-client.ts';
import { rawRequest } from '../support/raw-http.ts';

const assets = loadClientAssets(FIXTURE_CLIENT_DIR);
const home = assets.routes.get('/');
const fileOf = (url: string) => join(assets.dir, url.replace('/assets/', ''));
/** The largest file `/` loads (React's chunk): where compression shows, whatever the page's own entry holds. */
const script = [home?.script ?? '', ...(home?.preloads ?? [])].sort((a, b) => statSync(fileOf(b)).size - statSync(fileOf(a)).size)[0] ?? '';

describe('built assets', () => {
  test('are served with immutable caching and the built bytes', async () => {
    const { app } = buildApp(routes, { assets });
    const res = await request(app).get(script).set('Accept-Encoding', 'identity');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.text).toBe(readFileSync(fileOf(script), 'utf8'));
  });

  test.each(['br', 'gzip'] as const)('are served %s-compressed from the very first request of a new app', async (encoding) => {
    const { app } = buildApp(routes, { assets });
    const { server, origin } = await listen(app);
    try {
      const first = await getRaw(`${origin}${script}`, encoding);
      expect(first.encoding).toBe(encoding);
      const identity = await getRaw(`${origin}${script}`, 'identity');
      expect(identity.encoding).toBeUndefined();
      expect(first.body.length).toBeLessThan(identity.body.length / 2);
      const decoded = encoding === 'br' ? brotliDecompressSync(first.body) : gunzipSync(first.body);
      expect(decoded.equals(identity.body)).toBe(true);
    } finally {
      await close(server);
    }
  });

  test('the build writes .br and .gz beside each asset, and they are never served as files', async () => {
    const { app } = buildApp(routes, { assets });
    expect(existsSync(join(assets.dir, `${script.replace('/assets/', '')}.br`))).toBe(true);
    expect(existsSync(join(assets.dir, `${script.replace('/assets/', '')}.gz`))).toBe(true);
    await request(app).get(`${script}.br`).expect(404);
    await request(app).get(`${script}.gz`).expect(404);
  });

  test.each(['identity', 'gzip', 'br'])('answer HEAD as GET for Accept-Encoding %s, with the same head and no body', async (encoding) => {
    const { app } = buildApp(routes, { assets });
    const { server, origin } = await listen(app);
    try {
      const get = await request(origin).get(script).set('Accept-Encoding', encoding);
      const port = Number(new URL(origin).port);
      const head = await rawRequest(port, `HEAD ${script} HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: ${encoding}\r\nConnection: close\r\n\r\n`);
      expect(head.status).toBe(200);
      const headerOf = (name: string) => new RegExp(`\r\n${name}: ([^\r\n]*)`, 'i').exec(head.head)?.[1];
      expect(headerOf('Content-Type')).toBe(get.headers['content-type']);
      expect(headerOf('Content-Length')).toBe(get.headers['content-length']);
      expect(headerOf('Content-Encoding')).toBe(get.headers['content-encoding']);
      expect(head.body).toBe('');
    } finally {
      await close(server);
    }
  });

  test.each(['identity', 'gzip', 'br'])('tell caches they vary by Accept-Encoding alone, when asked for %s', async (encoding) => {
    const { app } = buildApp(routes, { assets });
    const res = await request(app).get(script).set('Accept-Encoding', encoding);
    expect(res.status).toBe(200);
    expect(res.headers.vary).toBe('Accept-Encoding');
  });

  test('do not answer other methods or unknown names', async () => {
    const { app } = buildApp(routes, { assets });
    await request(app).post(script).expect(404);
    await request(app).get('/assets/nope.js').expect(404);
  });
});
