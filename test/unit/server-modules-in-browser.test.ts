import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildClient } from '../../scripts/build-client.ts';

const FIXTURES = join(import.meta.dirname, '..', 'support', 'client-build-fixtures');
const DIR = 'test/support/client-build-fixtures';

/** The files under `dir` that hold the server module's marker: none may, whatever the build's outcome. */
async function markerIn(dir: string): Promise<string[]> {
  const files = await readdir(dir, { recursive: true }).catch(() => []);
  const holding: string[] = [];
  for (const file of files) {
    const text = await readFile(join(dir, file), 'utf8').catch(() => '');
    if (text.includes('GUESTBOOK-SERVER-MODULE-MARKER')) holding.push(file);
  }
  return holding;
}

/** A `*.server.ts` module is for load and action: browser code that reaches it stops the build, naming the chain of imports. */
describe('a server module reached from browser code', () => {
  let outDir: string;

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'server-modules-in-browser-'));
  });
  afterAll(() => rm(outDir, { recursive: true, force: true }));

  test('fails the build when a component imports it, naming the import', async () => {
    await expect(buildClient({ routesModule: join(FIXTURES, 'server-in-component-table.ts'), outDir: join(outDir, 'direct'), mode: 'production' })).rejects.toThrow(
      `${DIR}/pages/server-in-component.tsx imports ${DIR}/lib/guestbook.server.ts: a *.server.ts module cannot reach the browser (use it only from load or action; for its types alone, \`import type\`)`,
    );
  });

  test.each([
    ['loads it later with import()', 'server-dynamic-import'],
    ['imports it with a query after its name', 'server-query-import'],
  ])('fails the build when a component %s, naming the page, and writes none of it', async (_how, name) => {
    const out = join(outDir, name);
    // Before, the import() failed naming the server module alone, and the query passed: the module's code was bundled.
    await expect(buildClient({ routesModule: join(FIXTURES, `${name}-table.ts`), outDir: out, mode: 'production' })).rejects.toThrow(
      `${DIR}/pages/${name}.tsx imports ${DIR}/lib/guestbook.server.ts: a *.server.ts module cannot reach the browser`,
    );
    expect(await markerIn(out)).toEqual([]);
  });

  test('fails the build when a template import() can match a server module, whose file no import text names, and writes none of it', async () => {
    const out = join(outDir, 'template');
    // Before, the build passed, and the module's code was a chunk under /assets/.
    await expect(buildClient({ routesModule: join(FIXTURES, 'server-template-import-table.ts'), outDir: out, mode: 'production' })).rejects.toThrow(
      `${DIR}/pages/server-template-import.tsx imports ${DIR}/lib/guestbook.server.ts: a *.server.ts module cannot reach the browser`,
    );
    expect(await markerIn(out)).toEqual([]);
  });

  test('fails the build when a component reaches it through a helper, naming every import on the way', async () => {
    await expect(buildClient({ routesModule: join(FIXTURES, 'server-via-helper-table.ts'), outDir: join(outDir, 'helper'), mode: 'production' })).rejects.toThrow(
      `${DIR}/pages/server-via-helper.tsx imports ${DIR}/lib/entries-summary.ts, which imports ${DIR}/lib/guestbook.server.ts: a *.server.ts module cannot reach the browser (use it only from load or action; for its types alone, \`import type\`)`,
    );
  });
});
