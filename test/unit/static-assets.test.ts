import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { loadClientAssets } from '../../server/render/client-assets.ts';
import { routes } from '../../shared/routes.ts';
import { buildApp } from '../support/build-app.ts';
import { close, listen } from '../support/http-client.ts';

/** The bytes on the wire, not decompressed by a client library. */
function getRaw(url: string, acceptEncoding: string): Promise<{ encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false, headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const assets = loadClientAssets(join(import.meta.dirname, '..', '..', 'dist', 'client'));
const script = assets.pages.get('home')?.script ?? '';

describe('built assets', () => {
  test('are served with immutable caching and the built bytes', async () => {
    const { app } = buildApp(routes, { assets });
    const res = await request(app).get(script).set('Accept-Encoding', 'identity');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.text).toContain('hydrateRoot');
  });

  test('are compressed once, in the background, and then served compressed', async () => {
    const { app } = buildApp(routes, { assets });
    const { server, origin } = await listen(app);
    try {
      const first = await getRaw(`${origin}${script}`, 'br');
      expect(first.encoding).toBeUndefined();
      let later = first;
      for (let i = 0; i < 100 && later.encoding !== 'br'; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        later = await getRaw(`${origin}${script}`, 'br');
      }
      expect(later.encoding).toBe('br');
      expect(later.body.length).toBeLessThan(first.body.length / 2);
      expect(brotliDecompressSync(later.body).equals(first.body)).toBe(true);
    } finally {
      await close(server);
    }
  });

  test('do not answer other methods or unknown names', async () => {
    const { app } = buildApp(routes, { assets });
    await request(app).post(script).expect(404);
    await request(app).get('/assets/nope.js').expect(404);
  });
});
