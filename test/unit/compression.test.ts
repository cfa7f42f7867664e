import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import request from 'supertest';
import { asHydrating, buildApp, errorLines, waitFor } from '../support/build-app.ts';
import { arrival, closeTestServers, DESKTOP_CHROME, getDecoded, getTimed, listenForTest, type DecodedResponse } from '../support/http-client.ts';
import { unitRoutes } from '../support/pages.tsx';

afterEach(closeTestServers);

function shellBeforeContent(decoded: DecodedResponse): number {
  return arrival(decoded, 'SLOW-CONTENT-ARRIVED') - arrival(decoded, 'SHELL-HEADING');
}

describe('compression of streamed pages', () => {
  test.each([
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
  ])('Accept-Encoding %s gets %s, flushed so the shell still comes first', async (accept, expected) => {
    const { app } = buildApp(unitRoutes(400));
    const { origin } = await listenForTest(app);
    const decoded = await getDecoded(`${origin}/slow`, accept);
    expect(decoded.encoding).toBe(expected);
    expect(decoded.vary).toContain('Accept-Encoding');
    expect(shellBeforeContent(decoded)).toBeGreaterThan(250);
  });

  test('is skipped for a client that accepts none', async () => {
    const { app } = buildApp(unitRoutes(50));
    const { origin } = await listenForTest(app);
    const decoded = await getDecoded(`${origin}/slow`, 'identity');
    expect(decoded.encoding).toBeUndefined();
    expect(decoded.chunks.map((chunk) => chunk.text).join('')).toContain('SLOW-CONTENT-ARRIVED');
  });

  test('can be switched off for a proxy that compresses', async () => {
    const { app } = buildApp(unitRoutes(50), { pages: { compression: false } });
    const res = await request(app).get('/users/1').set('Accept-Encoding', 'gzip, br');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.text).toContain('<pre id="data">');
  });

  test('leaves status pages uncompressed: a few hundred bytes with a fresh nonce each time', async () => {
    const { app } = buildApp(unitRoutes(50));
    const res = await request(app).get('/no-such-page').set('Accept-Encoding', 'gzip, br');
    expect(res.status).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  test('a client that leaves mid-stream aborts the render and leaves no error behind', async () => {
    const { app, logs } = buildApp(unitRoutes(400));
    const { origin } = await listenForTest(app);
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${origin}/slow`, { agent: false, headers: { 'User-Agent': DESKTOP_CHROME, 'Accept-Encoding': 'br' } }, (res) => {
        expect(res.headers['content-encoding']).toBe('br');
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
      req.end();
    });
    await waitFor(() => logs.some((line) => line.msg === 'render aborted: client disconnected'));
    expect(errorLines(logs)).toEqual([]);
  });

  test('answers HEAD with the same encoding header and no body', async () => {
    const { app } = buildApp(unitRoutes(50));
    const res = await request(app).head('/users/1').set('Accept-Encoding', 'gzip');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
  });
});

describe("compression of a page's navigation data", () => {
  const NAVIGATION = { 'X-Navigation': 'data', 'X-Navigation-Scope': 'n7', 'User-Agent': DESKTOP_CHROME };

  test.each([
    ['Accept-Encoding gzip', 'gzip', 'gzip'],
    ['Accept-Encoding identity', 'identity', undefined],
    ['no Accept-Encoding', undefined, undefined],
  ])('tells caches the answer varies by Accept-Encoding, whether encoded or not: %s', async (_, accept, expected) => {
    const pages = asHydrating(unitRoutes(50));
    const { origin } = await listenForTest(buildApp(pages.routes, { assets: pages.assets }).app);
    const res = await getTimed(`${origin}/users/1`, accept === undefined ? NAVIGATION : { ...NAVIGATION, 'Accept-Encoding': accept });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['content-encoding']).toBe(expected);
    expect((res.headers.vary ?? '').split(/\s*,\s*/)).toContain('Accept-Encoding');
  });
});
