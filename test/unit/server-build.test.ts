import { appendFile, cp, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildClient, PRODUCT_ROUTES } from '../../scripts/build-client.ts';
import { buildServer, serverBuildOptions } from '../../scripts/build-server.ts';
import { CODE_CACHE, SERVER_BUNDLE } from '../../server/load-server.ts';
import { startServerEntry, type ServerProcess } from '../support/server-process.ts';

/**
 * The production server build as `npm run build` makes it (docs/deployment.md#code-cache): the
 * bundle without React's development build, and the code cache a start compiles it with.
 */
describe('the server build', () => {
  let root: string;
  let serverDir: string;
  const running: ServerProcess[] = [];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'server-build-'));
    serverDir = join(root, 'server');
    // The build runs the server once to fill the cache, and the server needs its client build.
    await buildClient({ routesModule: PRODUCT_ROUTES, outDir: join(root, 'client'), mode: 'production' });
    await buildServer(serverDir);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(running.map((server) => server.stop()));
    await rm(root, { recursive: true, force: true });
  });

  async function start(entry: string): Promise<ServerProcess> {
    const server = await startServerEntry(entry, { PORT: '0', HOST: '127.0.0.1' });
    running.push(server);
    return server;
  }

  function listening(server: ServerProcess): Record<string, unknown> | undefined {
    return server.logs.find((line) => line.msg === 'listening');
  }

  test('leaves React’s development build out of the production bundle, and keeps it where NODE_ENV chooses', async () => {
    const production = await readFile(join(serverDir, SERVER_BUNDLE), 'utf8');
    expect(production).toContain('react-dom-server.node.production.js');
    expect(production).not.toContain('.development.js');
    // `npm run dev` and the fixture servers choose at run time: both builds stay.
    const { server } = serverBuildOptions(join(root, 'any'), 'chosen-at-run-time');
    const result = await esbuild.build({ ...server, write: false, sourcemap: false });
    expect(result.outputFiles.map((file) => file.text).join('')).toContain('react-dom-server.node.development.js');
  });

  describe('gives what Express loads but the product needs late or never a stand-in that loads the real module when used', () => {
    test.each([
      ['mime-types', 'node_modules/mime-types/index.js', ['node_modules/express/lib/response.js', 'node_modules/accepts/index.js', 'node_modules/type-is/index.js', 'node_modules/send/index.js']],
      ['debug', 'node_modules/debug/src/index.js', ['node_modules/express/lib/application.js', 'node_modules/router/index.js', 'node_modules/finalhandler/index.js', 'node_modules/send/index.js']],
      ['body-parser', 'node_modules/body-parser/index.js', ['node_modules/express/lib/express.js']],
      ['qs', 'node_modules/qs/lib/index.js', ['node_modules/express/lib/utils.js', 'node_modules/body-parser/lib/types/urlencoded.js']],
    ])('%s: only its stand-in imports the real module, and Express imports the stand-in', async (module, realPath, importers) => {
      const { server } = serverBuildOptions(join(root, 'any'), 'production');
      const { metafile } = await esbuild.build({ ...server, write: false, sourcemap: false, metafile: true });
      const importersOf = (path: string) =>
        Object.entries(metafile.inputs)
          .filter(([, input]) => input.imports.some((imported) => imported.path === path))
          .map(([importer]) => importer);
      expect(importersOf(realPath)).toEqual([`scripts/stand-ins/${module}.cts`]);
      expect(importersOf(`scripts/stand-ins/${module}.cts`)).toEqual(expect.arrayContaining(importers));
    });

    test('a server build in which nothing imports one of them fails, rather than leave a stand-in out unnoticed', async () => {
      const { server } = serverBuildOptions(join(root, 'any'), 'production');
      const stdin = { contents: 'export const x = 1;', resolveDir: root };
      const build = esbuild.build({ ...server, entryPoints: undefined, stdin, write: false, sourcemap: false, logLevel: 'silent' });
      // esbuild reports the first plugin that fails the build.
      await expect(build).rejects.toThrow(/stand-in for mime-types: nothing imports "mime-types" any more/);
    });
  });

  test('keeps the entry, which no cache covers, small, and the bundle free of what vm.Script cannot run', async () => {
    expect((await stat(join(serverDir, 'main.js'))).size).toBeLessThan(8_192);
    const bundle = await readFile(join(serverDir, SERVER_BUNDLE), 'utf8');
    expect(bundle).not.toMatch(/\bimport\(|import\.meta/);
  });

  test('writes a code cache that a start compiles the server with, and a start writes nothing', async () => {
    const before = await readdir(serverDir);
    const cache = await stat(join(serverDir, CODE_CACHE));
    expect(cache.size).toBeGreaterThan(100_000);
    const server = await start(join(serverDir, 'main.js'));
    expect(listening(server)?.codeCache).toBe('used');
    expect((await fetch(`${server.origin}/`)).status).toBe(200);
    await server.stop();
    expect(await readdir(serverDir)).toEqual(before);
    expect((await stat(join(serverDir, CODE_CACHE))).mtimeMs).toBe(cache.mtimeMs);
  });

  test('starts without the cache when it belongs to another bundle, or is missing', async () => {
    const copy = join(root, 'changed');
    await cp(serverDir, join(copy, 'server'), { recursive: true });
    await cp(join(root, 'client'), join(copy, 'client'), { recursive: true });
    await appendFile(join(copy, 'server', SERVER_BUNDLE), '\n// changed after the cache was written\n');
    const stale = await start(join(copy, 'server', 'main.js'));
    expect(listening(stale)?.codeCache).toBe('stale');
    expect((await fetch(`${stale.origin}/`)).status).toBe(200);

    await rm(join(copy, 'server', CODE_CACHE));
    const absent = await start(join(copy, 'server', 'main.js'));
    expect(listening(absent)?.codeCache).toBe('absent');
    expect((await fetch(`${absent.origin}/`)).status).toBe(200);
  });
});
