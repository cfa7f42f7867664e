import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildClient } from '../../scripts/build-client.ts';
import type { PageAssets } from '../../server/render/client-assets.ts';

const FIXTURES = join(import.meta.dirname, '..', 'support', 'client-build-fixtures');

/**
 * The browser's bundle of a page module leaves out `load`, `action`, `head` and `errorHead`, and with them the
 * code and imports only they use: a server module behind them never reaches the build.
 */
describe('the client bundle of a page leaves out what runs on the server', () => {
  let outDir: string;
  let pages: Record<string, PageAssets>;
  let everyFile: string;

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'page-server-exports-'));
    pages = await buildClient({ routesModule: join(FIXTURES, 'server-code-table.ts'), outDir: join(outDir, 'built'), mode: 'production' });
    const assets = join(outDir, 'built', 'assets');
    const files = (await readdir(assets)).filter((file) => file.endsWith('.js'));
    everyFile = (await Promise.all(files.map((file) => readFile(join(assets, file), 'utf8')))).join('\n');
  });
  afterAll(() => rm(outDir, { recursive: true, force: true }));

  test('builds a page whose load imports a server module that imports node:fs, and no file holds that module', () => {
    expect(Object.keys(pages).sort()).toEqual(['/guestbook', '/sign', '/titled']);
    expect(everyFile).toContain('GUESTBOOK-PAGE-MARKER');
    expect(everyFile).not.toContain('GUESTBOOK-SERVER-MODULE-MARKER');
    expect(everyFile).not.toContain('node:fs');
  });

  test('keeps what the component uses too, though load uses it', () => {
    expect(everyFile).toContain('FORMAT-ENTRY-MARKER');
  });

  test('builds a page whose action uses a helper that uses the server module, and leaves out the helper', () => {
    expect(everyFile).toContain('SIGN-PAGE-MARKER');
    expect(everyFile).not.toContain('saved');
  });

  test('leaves out a head function and a module only it imports, statements and all', () => {
    expect(everyFile).toContain('TITLED-PAGE-MARKER');
    expect(everyFile).not.toContain('HEAD-ONLY-MARKER');
  });

  test("leaves out an errorHead function and a module only it imports: a boundary's head is the server's", () => {
    expect(everyFile).toContain('TITLED-PAGE-MARKER');
    expect(everyFile).not.toContain('BOUNDARY-TITLE-ONLY-MARKER');
  });

  test('refuses a component that calls load, naming the file and the line', async () => {
    await expect(buildClient({ routesModule: join(FIXTURES, 'load-in-component-table.ts'), outDir: join(outDir, 'load-in-component'), mode: 'production' })).rejects.toThrow(
      /client-build-fixtures\/pages\/load-in-component\.tsx:10: the browser's code of the page uses `load`, which runs on the server only and is left out of the browser's bundle/,
    );
  });

  test("refuses a page that exports React Router's `loader`, naming the file, the line and `load`", async () => {
    await expect(buildClient({ routesModule: join(FIXTURES, 'react-router-names-table.ts'), outDir: join(outDir, 'react-router-names'), mode: 'production' })).rejects.toThrow(
      /client-build-fixtures\/pages\/react-router-names\.tsx:8: exports `loader`, which this framework does not read: its server data comes from `load`/,
    );
  });

  test("refuses React Router's `handle`, and a name the module's role does not read: a layout's `action`, a page's `shouldRevalidate`", async () => {
    await expect(buildClient({ routesModule: join(FIXTURES, 'handle-table.ts'), outDir: join(outDir, 'handle'), mode: 'production' })).rejects.toThrow(
      /client-build-fixtures\/pages\/handle\.tsx:8: exports `handle`, which this framework does not read: there is no `useMatches\(\)`/,
    );
    await expect(buildClient({ routesModule: join(FIXTURES, 'layout-action-table.ts'), outDir: join(outDir, 'layout-action'), mode: 'production' })).rejects.toThrow(
      /client-build-fixtures\/layouts\/with-action\.tsx:12: exports `action`, which a layout module does not have: a layout has no action: posts go to the page that holds the form/,
    );
    await expect(
      buildClient({ routesModule: join(FIXTURES, 'page-should-revalidate-table.ts'), outDir: join(outDir, 'page-should-revalidate'), mode: 'production' }),
    ).rejects.toThrow(/client-build-fixtures\/pages\/page-only-layout-names\.tsx:8: exports `shouldRevalidate`, which a page module does not have: only a layout's data is kept/);
    // A module that is both, a page on one route and a layout around another, may export both.
    const both = await buildClient({ routesModule: join(FIXTURES, 'page-and-layout-table.ts'), outDir: join(outDir, 'page-and-layout'), mode: 'production' });
    expect(Object.keys(both).sort()).toEqual(['/both', '/both/inner']);
  });

  test("keeps the lines of the page's code where they were, so the build's messages point at the right line", async () => {
    await expect(buildClient({ routesModule: join(FIXTURES, 'missing-module-table.ts'), outDir: join(outDir, 'missing-module'), mode: 'production' })).rejects.toThrow(
      /route \/missing-module:\n.*client-build-fixtures\/pages\/missing-module\.tsx:12: Could not resolve "\.\/no-such-module\.ts"/,
    );
  });
});
