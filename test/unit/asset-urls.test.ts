import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildClient } from '../../scripts/build-client.ts';
import * as esbuild from 'esbuild';
import { bundleNodeEntry, serverBuildOptions } from '../../scripts/build-server.ts';
import { ASSETS_PATH, type PageAssets } from '../../server/render/client-assets.ts';
import { createStaticAssets } from '../../server/static/static-assets.ts';

const FIXTURES = join(import.meta.dirname, '..', 'support', 'client-build-fixtures');

/** A page whose stylesheet names a font and an image, and whose component imports the image (client-build-fixtures/pages/with-assets.tsx). */
describe('images and fonts named by stylesheets and modules', () => {
  let outDir: string;
  let page: PageAssets;
  const assetsDir = () => join(outDir, 'client', 'assets');
  const fileOf = (url: string) => join(assetsDir(), url.slice(ASSETS_PATH.length));

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'asset-urls-'));
    const pages = await buildClient({ routesModule: join(FIXTURES, 'asset-table.ts'), outDir: join(outDir, 'client'), mode: 'production' });
    page = pages['/with-assets'] as PageAssets;
  });
  afterAll(() => rm(outDir, { recursive: true, force: true }));

  test('become built files under /assets/, named by their bytes, and the stylesheet names them by that absolute URL', async () => {
    const css = await readFile(fileOf(page.styles[0] ?? ''), 'utf8');
    const urls = [...css.matchAll(/url\("?([^")]+)"?\)/g)].map((match) => match[1] ?? '');
    // Named by letters, digits, _ and - (the space made one), the query and fragment kept as written.
    expect(urls).toEqual([
      expect.stringMatching(/^\/assets\/face-[0-9A-F]{12}\.woff2\?v=2$/),
      expect.stringMatching(/^\/assets\/mark-[0-9A-F]{12}\.png$/),
      expect.stringMatching(/^\/assets\/sprite-sheet-[0-9A-F]{12}\.svg#close$/),
    ]);
    for (const [url, source] of [
      [(urls[0] ?? '').replace(/\?.*$/, ''), 'face.woff2'],
      [urls[1] ?? '', 'mark.png'],
    ] as const) {
      expect(await readFile(fileOf(url))).toEqual(await readFile(join(FIXTURES, 'assets', source)));
      // Compressed formats are not compressed again.
      expect(existsSync(`${fileOf(url)}.br`) || existsSync(`${fileOf(url)}.gz`), url).toBe(false);
    }
  });

  test("a module's import is the same URL, in the page's script and in the server's build", async () => {
    const css = await readFile(fileOf(page.styles[0] ?? ''), 'utf8');
    const imageUrl = /\/assets\/mark-[0-9A-F]{12}\.png/.exec(css)?.[0] ?? 'none';
    expect(await readFile(fileOf(page.script), 'utf8')).toContain(JSON.stringify(imageUrl));
    const serverEntry = join(outDir, 'server', 'asset-url-entry.js');
    await bundleNodeEntry(join(FIXTURES, 'asset-url-entry.ts'), serverEntry);
    const { default: serverUrl } = (await import(pathToFileURL(serverEntry).href)) as { default: string };
    expect(serverUrl).toBe(imageUrl);
    // The server's build copies nothing: the client build serves the file.
    expect(existsSync(join(outDir, 'server', imageUrl.slice(ASSETS_PATH.length)))).toBe(false);
  });

  test("one only the server names (a head's og:image) is copied beside the client's files by the server's build", async () => {
    const { server } = serverBuildOptions(join(outDir, 'server'), 'production', join(FIXTURES, 'asset-app.ts'));
    await esbuild.build({ ...server, logLevel: 'silent' });
    const bundle = await readFile(join(outDir, 'server', 'server.js'), 'utf8');
    const url = /\/assets\/og-[0-9A-F]{12}\.png/.exec(bundle)?.[0] ?? 'none';
    expect(await readFile(fileOf(url))).toEqual(await readFile(join(FIXTURES, 'assets', 'og.png')));
  });

  test('are served with their type, kept a year, and the same bytes', async () => {
    const app = express().use(createStaticAssets(assetsDir(), ASSETS_PATH));
    const css = await readFile(fileOf(page.styles[0] ?? ''), 'utf8');
    for (const [extension, type] of [
      ['png', 'image/png'],
      ['woff2', 'font/woff2'],
    ] as const) {
      const url = new RegExp(`/assets/[a-z]+-[0-9A-F]{12}\\.${extension}`).exec(css)?.[0] ?? 'none';
      const res = await request(app)
        .get(url)
        .set('Accept-Encoding', 'br, gzip')
        .buffer(true)
        .parse((response, done) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect(res.status, url).toBe(200);
      expect(res.headers['content-type'], url).toBe(type);
      expect(res.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-encoding'], url).toBeUndefined();
      expect(res.body, url).toEqual(await readFile(fileOf(url)));
    }
  });
});
