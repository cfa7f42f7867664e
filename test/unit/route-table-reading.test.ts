import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildClient } from '../../scripts/build-client.ts';
import type { PageAssets } from '../../server/render/client-assets.ts';
import { NOT_FOUND_PATH } from '../../shared/api/not-found-route.ts';
import { findPageEntries } from '../../scripts/client-build/route-table-reader.ts';

const FIXTURES = join(import.meta.dirname, '..', 'support', 'client-build-fixtures');

/** The client build finds the pages by reading the route table's source, never by running it. */
describe('the client build reads the route table without running it', () => {
  let outDir: string;

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'route-table-reading-'));
  });
  afterAll(() => rm(outDir, { recursive: true, force: true }));

  test('builds a table whose module does something when it runs, and that something never happens', async () => {
    const pages = await buildClient({ routesModule: join(FIXTURES, 'table-with-side-effect.ts'), outDir: join(outDir, 'side-effect'), mode: 'production' });
    expect(Reflect.get(globalThis, 'routeTableRan')).toBeUndefined();
    expect(Reflect.get(globalThis, 'includedRouteTableRan')).toBeUndefined();
    // Plain, inside a spread with its own load, and from the table spread into this one; the inline route ships nothing.
    expect(Object.keys(pages).sort()).toEqual(['/other', '/plain', '/plain/loaded']);
    expect(pages['/plain/loaded']).toEqual(pages['/plain']);
    const script = async (page: PageAssets | undefined) => readFile(join(outDir, 'side-effect', 'assets', (page?.script ?? '').replace('/assets/', '')), 'utf8');
    expect(await script(pages['/plain'])).toContain('PLAIN-PAGE-MARKER');
    expect(await script(pages['/other'])).toContain('OTHER-PAGE-MARKER');
    const manifest: unknown = JSON.parse(await readFile(join(outDir, 'side-effect', 'manifest.json'), 'utf8'));
    expect(manifest).toEqual({ routes: pages });
  });

  test("gives a resource route's module (no default export) no entry", async () => {
    const pages = await buildClient({ routesModule: join(FIXTURES, 'resource-route-table.js'), outDir: join(outDir, 'resource'), mode: 'production' });
    expect(Object.keys(pages)).toEqual(['/plain']);
  });

  test('refuses a path that is not a string literal, naming the file, the line and what to write', async () => {
    await expect(buildClient({ routesModule: join(FIXTURES, 'computed-path-table.ts'), outDir: join(outDir, 'computed'), mode: 'production' })).rejects.toThrow(
      /client-build-fixtures\/computed-path-table\.ts:5: route\(plain\.PLAIN_PATH, plain\): write the path as a string literal, as in route\('\/products\/:id', product\)/,
    );
  });

  test('refuses a path Express 5 would not read, naming the file, the line and the Express 5 form', async () => {
    await expect(buildClient({ routesModule: join(FIXTURES, 'express-4-path-table.ts'), outDir: join(outDir, 'express-4'), mode: 'production' })).rejects.toThrow(
      'client-build-fixtures/express-4-path-table.ts:5: Route /tabs/:tab?: not an Express 5 path (Unexpected ? at index 10: /tabs/:tab?): an optional segment is written in braces, {/:name}',
    );
    await expect(buildClient({ routesModule: join(FIXTURES, 'relative-path-table.ts'), outDir: join(outDir, 'relative'), mode: 'production' })).rejects.toThrow(
      `client-build-fixtures/relative-path-table.ts:5: Route products: a path starts with "/" (a layout adds no segment: its routes write their full paths, as in '/products')`,
    );
  });

  test('refuses a page module whose component is exported by name only, which would make it a resource route', async () => {
    await expect(buildClient({ routesModule: join(FIXTURES, 'named-component-table.ts'), outDir: join(outDir, 'named'), mode: 'production' })).rejects.toThrow(
      /Route \/named-component: .*client-build-fixtures\/pages\/named-component\.tsx has no default export, so it would be a resource route, yet it exports `NamedComponentPage` as a component is named: make the page's component its default export \(`export default function NamedComponentPage`\)/,
    );
  });

  test('refuses a layout id written twice, naming both places', async () => {
    await expect(buildClient({ routesModule: join(FIXTURES, 'layout-id-twice-table.ts'), outDir: join(outDir, 'id-twice'), mode: 'production' })).rejects.toThrow(
      /client-build-fixtures\/layout-id-twice-table\.ts:9: layout\(\): the id "frame" is already the id of the layout at .*client-build-fixtures\/layout-id-twice-table\.ts:8 \(layout ids are unique\)/,
    );
  });

  test("builds a layout's notFound page as an entry inside that layout, under the path the server mounts it at, its load left out", async () => {
    const pages = await buildClient({ routesModule: join(FIXTURES, 'not-found-table.ts'), outDir: join(outDir, 'not-found'), mode: 'production' });
    expect(Object.keys(pages)).toEqual(['/plain', NOT_FOUND_PATH]);
    const built = pages[NOT_FOUND_PATH];
    const code = async (url: string) => readFile(join(outDir, 'not-found', 'assets', url.replace('/assets/', '')), 'utf8');
    // The page's entry, and the layout with it (in a chunk it shares with /plain).
    const texts = await Promise.all([built?.script ?? '', ...(built?.preloads ?? [])].map(code));
    expect(texts[0]).toContain('MISSING-PAGE-MARKER');
    expect(texts.some((text) => text.includes('FRAME-LAYOUT-MARKER'))).toBe(true);
    expect(texts.join('\n')).not.toContain('MISSING-LOAD-MARKER');
  });

  test('refuses a notFound page that is not a module imported with import * as, naming the file and the line', async () => {
    await expect(buildClient({ routesModule: join(FIXTURES, 'not-found-inline-table.ts'), outDir: join(outDir, 'not-found-inline'), mode: 'production' })).rejects.toThrow(
      /client-build-fixtures\/not-found-inline-table\.ts:7: layout\(\): its notFound page is not a module of this project imported with `import \* as`/,
    );
  });

  test('refuses a layout around an empty list of routes, naming the file and the line', async () => {
    await expect(buildClient({ routesModule: join(FIXTURES, 'layout-without-routes-table.ts'), outDir: join(outDir, 'no-routes'), mode: 'production' })).rejects.toThrow(
      /client-build-fixtures\/layout-without-routes-table\.ts:6: layout\(\): its list of routes is empty, so it frames nothing/,
    );
  });

  test('refuses a page that is not a module imported with `import * as`, naming the file, the line and what to write', async () => {
    await expect(buildClient({ routesModule: join(FIXTURES, 'aliased-page-table.ts'), outDir: join(outDir, 'aliased'), mode: 'production' })).rejects.toThrow(
      /client-build-fixtures\/aliased-page-table\.ts:7: Route \/aliased: its page is not a module of this project imported with `import \* as` \(write the page in its own file, `import \* as page from '\.\/pages\/page\.tsx'`, and pass `page` to route\(\)\)/,
    );
  });

  test('refuses a layout whose module is not a namespace import, naming the line of that layout() and the error', async () => {
    const reading = findPageEntries(join(FIXTURES, 'layout-not-namespace-table.ts'));
    await expect(reading).rejects.toThrow(
      /client-build-fixtures\/layout-not-namespace-table\.ts:6: layout\(\): its module is not a module of this project imported with `import \* as`/,
    );
    await expect(reading).rejects.toMatchObject({ name: 'RouteTableError' });
  });

  test('refuses two layouts that each name a notFound page', async () => {
    await expect(findPageEntries(join(FIXTURES, 'two-not-found-table.ts'))).rejects.toThrow(/client-build-fixtures\/two-not-found-table\.ts: two layouts name a notFound page/);
  });

  test('reads a notFound page named in shorthand, `{ notFound }`', async () => {
    const { routes, files } = await findPageEntries(join(FIXTURES, 'not-found-shorthand-table.ts'));
    expect(files.get(routes.get(NOT_FOUND_PATH) ?? '')).toBe(join(FIXTURES, 'pages', 'missing.tsx'));
  });

  test('refuses a page imported from a package, naming its specifier', async () => {
    await expect(findPageEntries(join(FIXTURES, 'package-page-table.ts'))).rejects.toThrow(/package-page-table\.ts:5: Route \/react: no file of this project for 'react'/);
  });
});
