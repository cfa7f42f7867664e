import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { assetUrlsPlugin } from '../../scripts/client-build/asset-urls-plugin.ts';
import { ASSETS_PATH } from '../../server/render/client-assets.ts';
import { createStaticAssets } from '../../server/static/static-assets.ts';

/** The smallest PNG there is (a 1×1 transparent pixel), and a second one with other bytes. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==', 'base64');
const OTHER_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/q842iQAAAABJRU5ErkJggg==', 'base64');

/**
 * How the asset plugin names what a stylesheet or a module points at (docs/styles.md#images-and-fonts),
 * through esbuild's own API: each case builds a module or a stylesheet beside real files in a folder
 * of its own, as the client build does.
 */
describe('built names of images and fonts', () => {
  let folder: string;
  let assets: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'asset-names-'));
    assets = join(folder, 'assets');
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  /** Builds `contents` (a module, or a stylesheet with `loader: 'css'`) in `folder`, copying assets into `assets`. */
  async function build(contents: string, loader: 'js' | 'css' = 'js'): Promise<string> {
    const result = await esbuild.build({
      stdin: { contents, loader, resolveDir: folder, sourcefile: loader === 'css' ? 'page.css' : 'page.js' },
      bundle: true,
      write: false,
      format: 'esm',
      logLevel: 'silent',
      plugins: [assetUrlsPlugin({ copyInto: assets })],
    });
    return result.outputFiles.map((file) => file.text).join('');
  }

  test('`Logo.PNG` is built with a lower-case extension and served as image/png', async () => {
    await writeFile(join(folder, 'Logo.PNG'), PNG);
    const code = await build("import logo from './Logo.PNG'; export { logo };");
    const url = /"(\/assets\/Logo-[0-9A-F]{12}\.png)"/.exec(code)?.[1];
    expect(url, code).toBeDefined();
    expect(await readdir(assets)).toContain(url?.slice(ASSETS_PATH.length));
    const res = await request(express().use(createStaticAssets(assets, ASSETS_PATH))).get(url ?? '');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(res.body as Buffer, PNG)).toBe(0);
  });

  test('a root-relative url(/logo.png) stays as written, though a logo.png sits beside the stylesheet', async () => {
    await writeFile(join(folder, 'logo.png'), PNG);
    const css = await build('.root { background: url(/logo.png) } .beside { background: url(./logo.png) }', 'css');
    expect(css).toMatch(/\.root \{\s*background: url\("?\/logo\.png"?\)/);
    // The relative one beside it is the built file: the same file, so only the way it is written differs.
    expect(css).toMatch(/\.beside \{\s*background: url\("?\/assets\/logo-[0-9A-F]{12}\.png"?\)/);
  });

  test('the same path with other bytes gets another built name', async () => {
    const path = join(folder, 'changing.png');
    await writeFile(path, PNG);
    const before = /\/assets\/changing-[0-9A-F]{12}\.png/.exec(await build("export { default } from './changing.png';"))?.[0];
    await writeFile(path, OTHER_PNG);
    const after = /\/assets\/changing-[0-9A-F]{12}\.png/.exec(await build("export { default } from './changing.png';"))?.[0];
    expect(before).toBeDefined();
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect(await readFile(join(assets, after?.slice(ASSETS_PATH.length) ?? ''))).toEqual(OTHER_PNG);
  });
});
