import { request as httpRequest } from 'node:http';
import type { BrotliCompress, BrotliOptions, Gzip, ZlibOptions } from 'node:zlib';
import { brotliDecompressSync, constants } from 'node:zlib';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { brotliWindowBits } from '../../scripts/lib/brotli-window.ts';
import { buildApp, waitFor } from '../support/build-app.ts';
import { closeTestServers, DESKTOP_CHROME, getRaw, listenForTest } from '../support/http-client.ts';
import { unitRoutes } from '../support/pages.tsx';

/**
 * Every compressor the app makes, through zlib's public factories: each holds native memory
 * (brotli's window and match finder) until it is destroyed, which garbage collection alone
 * does late or never under load.
 */
const encoders = vi.hoisted((): (BrotliCompress | Gzip)[] => []);
const brotliOptions = vi.hoisted((): (BrotliOptions | undefined)[] => []);
vi.mock('node:zlib', async (importOriginal) => {
  const zlib = await importOriginal<typeof import('node:zlib')>();
  return {
    ...zlib,
    createBrotliCompress(options?: BrotliOptions) {
      const encoder = zlib.createBrotliCompress(options);
      encoders.push(encoder);
      brotliOptions.push(options);
      return encoder;
    },
    createGzip(options?: ZlibOptions) {
      const encoder = zlib.createGzip(options);
      encoders.push(encoder);
      return encoder;
    },
  };
});

afterEach(async () => {
  encoders.length = 0;
  brotliOptions.length = 0;
  await closeTestServers();
});

async function fixtureOrigin(): Promise<string> {
  const { app } = buildApp(unitRoutes(50));
  const { origin } = await listenForTest(app);
  return origin;
}

/** Asks for `path` and lets go as soon as the first bytes arrive, as a browser that navigates away. */
function leaveAfterFirstBytes(url: string, acceptEncoding: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false, headers: { 'User-Agent': DESKTOP_CHROME, 'Accept-Encoding': acceptEncoding } }, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve();
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    req.end();
  });
}

describe('compressors of streamed pages', () => {
  test('brotli declares a 256 KiB window, and the page decodes whole', async () => {
    const origin = await fixtureOrigin();
    const { encoding, body } = await getRaw(`${origin}/slow`, 'br');
    expect(encoding).toBe('br');
    expect(brotliWindowBits(body)).toBe(18);
    const html = brotliDecompressSync(body).toString('utf8');
    expect(html).toContain('SLOW-CONTENT-ARRIVED');
    expect(html.endsWith('</html>')).toBe(true);
  });

  test('brotli is told pages are small, so a shell of a megabyte or more does not get a 4 MiB match finder', async () => {
    // Without a hint the encoder takes the first write's size; from 1 MiB on, quality 4 then
    // uses a match finder eight times as large (docs/deployment.md#compression-memory).
    const origin = await fixtureOrigin();
    await getRaw(`${origin}/slow`, 'br');
    expect(brotliOptions).toHaveLength(1);
    const hint = brotliOptions[0]?.params?.[constants.BROTLI_PARAM_SIZE_HINT];
    expect(hint).toBeGreaterThan(0);
    expect(hint).toBeLessThan(1024 * 1024);
  });

  test.each(['br', 'gzip'])('%s: a page that ends releases its compressor', async (acceptEncoding) => {
    const origin = await fixtureOrigin();
    const { encoding } = await getRaw(`${origin}/slow`, acceptEncoding);
    expect(encoding).toBe(acceptEncoding);
    expect(encoders).toHaveLength(1);
    await waitFor(() => encoders.every((encoder) => encoder.destroyed), 2_000, 'compressor destroyed');
  });

  test.each(['br', 'gzip'])('%s: a client that leaves mid-stream releases its compressor at once', async (acceptEncoding) => {
    const origin = await fixtureOrigin();
    // The boundary never resolves: nothing but the client's leaving can end this page.
    await leaveAfterFirstBytes(`${origin}/hang`, acceptEncoding);
    expect(encoders).toHaveLength(1);
    await waitFor(() => encoders.every((encoder) => encoder.destroyed), 2_000, 'compressor destroyed');
  });
});
