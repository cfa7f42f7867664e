import { request as httpRequest, type Server } from 'node:http';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { afterEach, describe, expect, test } from 'vitest';
import request from 'supertest';
import { buildApp, errorLines, waitFor } from './helpers.ts';
import { close, listen } from './support/http-client.ts';
import { fixtureRoutes } from './support/pages.tsx';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(close));
});

interface Decoded {
  readonly encoding: string | undefined;
  readonly vary: string | undefined;
  readonly chunks: ReadonlyArray<{ readonly at: number; readonly text: string }>;
}

/** Decompresses as bytes arrive, stamping each piece of decoded text with its arrival time. */
function getDecoded(url: string, acceptEncoding: string): Promise<Decoded> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(url, { agent: false, headers: { 'User-Agent': CHROME, 'Accept-Encoding': acceptEncoding } }, (res) => {
      const encoding = res.headers['content-encoding'];
      const decoder = encoding === 'br' ? createBrotliDecompress() : encoding === 'gzip' ? createGunzip() : undefined;
      const chunks: { at: number; text: string }[] = [];
      const source = decoder === undefined ? res : res.pipe(decoder);
      source.on('data', (chunk: Buffer) => chunks.push({ at: performance.now() - started, text: chunk.toString() }));
      source.on('end', () => resolve({ encoding, vary: res.headers.vary, chunks }));
      source.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function shellBeforeContent(decoded: Decoded): number {
  const shell = decoded.chunks.find((chunk) => chunk.text.includes('SHELL-HEADING'));
  const content = decoded.chunks.find((chunk) => chunk.text.includes('SLOW-CONTENT-ARRIVED'));
  if (shell === undefined || content === undefined) throw new Error('shell or content missing');
  return content.at - shell.at;
}

describe('compression of streamed pages', () => {
  test.each([
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
  ])('Accept-Encoding %s gets %s, flushed so the shell still comes first', async (accept, expected) => {
    const { app } = buildApp(fixtureRoutes(400));
    const { server, origin } = await listen(app);
    servers.push(server);
    const decoded = await getDecoded(`${origin}/slow`, accept);
    expect(decoded.encoding).toBe(expected);
    expect(decoded.vary).toContain('Accept-Encoding');
    expect(shellBeforeContent(decoded)).toBeGreaterThan(250);
  });

  test('is skipped for a client that accepts none', async () => {
    const { app } = buildApp(fixtureRoutes(50));
    const { server, origin } = await listen(app);
    servers.push(server);
    const decoded = await getDecoded(`${origin}/slow`, 'identity');
    expect(decoded.encoding).toBeUndefined();
    expect(decoded.chunks.map((chunk) => chunk.text).join('')).toContain('SLOW-CONTENT-ARRIVED');
  });

  test('can be switched off for a proxy that compresses', async () => {
    const { app } = buildApp(fixtureRoutes(50), { compression: false });
    const res = await request(app).get('/users/1').set('Accept-Encoding', 'gzip, br');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.text).toContain('<pre id="data">');
  });

  test('leaves status pages uncompressed: a few hundred bytes with a fresh nonce each time', async () => {
    const { app } = buildApp(fixtureRoutes(50));
    const res = await request(app).get('/no-such-page').set('Accept-Encoding', 'gzip, br');
    expect(res.status).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  test('a client that leaves mid-stream aborts the render and leaves no error behind', async () => {
    const { app, logs } = buildApp(fixtureRoutes(400));
    const { server, origin } = await listen(app);
    servers.push(server);
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${origin}/slow`, { agent: false, headers: { 'User-Agent': CHROME, 'Accept-Encoding': 'br' } }, (res) => {
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
    const { app } = buildApp(fixtureRoutes(50));
    const res = await request(app).head('/users/1').set('Accept-Encoding', 'gzip');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
  });
});
