import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildClient } from '../../scripts/build-client.ts';

const FIXTURES = join(import.meta.dirname, '..', 'support', 'client-build-fixtures');
const DIR = 'test/support/client-build-fixtures';

/** A `*.server.ts` module is for load and action: browser code that reaches it stops the build, naming the chain of imports. */
describe('a server module reached from browser code', () => {
  let outDir: string;

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'server-modules-in-browser-'));
  });
  afterAll(() => rm(outDir, { recursive: true, force: true }));

  test('fails the build when a component imports it, naming the import', async () => {
    await expect(buildClient({ routesModule: join(FIXTURES, 'server-in-component-table.ts'), outDir: join(outDir, 'direct'), mode: 'production' })).rejects.toThrow(
      `${DIR}/pages/server-in-component.tsx imports ${DIR}/lib/guestbook.server.ts: a *.server.ts module cannot reach the browser (use it only from load or action)`,
    );
  });

  test('fails the build when a component reaches it through a helper, naming every import on the way', async () => {
    await expect(buildClient({ routesModule: join(FIXTURES, 'server-via-helper-table.ts'), outDir: join(outDir, 'helper'), mode: 'production' })).rejects.toThrow(
      `${DIR}/pages/server-via-helper.tsx imports ${DIR}/lib/entries-summary.ts, which imports ${DIR}/lib/guestbook.server.ts: a *.server.ts module cannot reach the browser (use it only from load or action)`,
    );
  });
});
