import { spawnSync } from 'node:child_process';
import { appendFile, cp, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildClient } from '../../scripts/build-client.ts';
import { buildServer, SERVER_BUNDLE, serverBuildOptions } from '../../scripts/build-server.ts';
import { COMPILE_CACHE_DIR } from '../../server/compile-cache.ts';
import { FIXTURE_ROUTES_MODULE } from '../support/fixture-server-build.ts';
import { startWithStderr, type StartedEntry } from '../support/start-with-stderr.ts';

const FIXTURE_APP_MODULE = join(import.meta.dirname, '..', 'support', 'fixture-app.ts');

/**
 * The production server build as `npm run build` makes it (docs/deployment.md#compile-cache): the
 * bundle without React's development build, and Node's compile cache filled for it. Node says
 * which module it compiled from the cache only on stderr, with NODE_DEBUG_NATIVE=COMPILE_CACHE.
 */
describe('the server build', () => {
  let root: string;
  let serverDir: string;
  const running: StartedEntry[] = [];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'server-build-'));
    // The image's package.json makes the built files ES modules; so does this one.
    await writeFile(join(root, 'package.json'), '{ "type": "module" }\n');
    serverDir = join(root, 'server');
    // What an older build left behind, which this one must not keep.
    await mkdir(serverDir);
    await writeFile(join(serverDir, 'server.cjs'), 'module.exports = "an older build";\n');
    // Around the framework's fixture app, never the app's: its routes and settings are the app's to change.
    await buildClient({ routesModule: FIXTURE_ROUTES_MODULE, outDir: join(root, 'client'), mode: 'production' });
    await buildServer(serverDir, FIXTURE_APP_MODULE);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(running.map((server) => server.stop()));
    await rm(root, { recursive: true, force: true });
  });

  async function start(dir: string, env: Record<string, string> = {}): Promise<StartedEntry> {
    const server = await startWithStderr(join(dir, 'main.js'), { PORT: '0', HOST: '127.0.0.1', NODE_DEBUG_NATIVE: 'COMPILE_CACHE', ...env });
    running.push(server);
    return server;
  }

  /** A copy of the build (server and client) to change without touching the others' tests. */
  async function copyOfBuild(name: string): Promise<string> {
    const copy = join(root, name);
    await cp(serverDir, join(copy, 'server'), { recursive: true });
    await cp(join(root, 'client'), join(copy, 'client'), { recursive: true });
    return join(copy, 'server');
  }

  /** Every file under the cache folder with its size and modification time. */
  async function cacheFiles(dir: string): Promise<string[]> {
    const folder = join(dir, COMPILE_CACHE_DIR);
    const entries = await readdir(folder, { recursive: true, withFileTypes: true });
    const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
    return Promise.all(files.map(async (file) => `${file} ${(await stat(file)).size} ${(await stat(file)).mtimeMs}`));
  }

  const accepted = (dir: string) => `V8 code cache for ESM ${pathToFileURL(join(dir, SERVER_BUNDLE)).href} was accepted`;

  test('leaves React’s development build out of the production bundle, and keeps it where NODE_ENV chooses', async () => {
    async function inputs(react: 'production' | 'chosen-at-run-time'): Promise<string[]> {
      const { server } = serverBuildOptions(join(root, 'any'), react);
      const { metafile } = await esbuild.build({ ...server, write: false, sourcemap: false, metafile: true });
      return Object.keys(metafile.inputs);
    }
    const development = /\.development\.js$/;
    expect((await inputs('production')).filter((input) => development.test(input))).toEqual([]);
    // `npm run dev` and the fixture servers choose at run time: both builds stay.
    expect((await inputs('chosen-at-run-time')).some((input) => development.test(input))).toBe(true);
  });

  test('holds the entries, the bundle, their maps and the compile cache, and nothing an older build left', async () => {
    expect((await readdir(serverDir)).sort()).toEqual([
      COMPILE_CACHE_DIR,
      'fill-compile-cache.js',
      'fill-compile-cache.js.map',
      'main.js',
      'main.js.map',
      SERVER_BUNDLE,
      `${SERVER_BUNDLE}.map`,
    ]);
  });

  test('keeps the entry, which Node compiles before its compile cache is on, a few kilobytes', async () => {
    expect((await stat(join(serverDir, 'main.js'))).size).toBeLessThan(8_192);
  });

  test('fills Node’s compile cache, which a start compiles the bundle with and leaves as it was', async () => {
    // Nothing to load packages from: the bundle carries them.
    expect(() => createRequire(join(serverDir, 'main.js')).resolve('express')).toThrow(/Cannot find module/);
    const before = await cacheFiles(serverDir);
    expect(before.length).toBeGreaterThan(0);

    const server = await start(serverDir);
    expect(server.listening()?.compileCache).toEqual({ status: 'enabled', directory: join(serverDir, COMPILE_CACHE_DIR) });
    expect(server.stderr()).toContain(accepted(serverDir));
    expect((await fetch(`${server.origin}/`)).status).toBe(200);
    // Node writes the cache as a process ends, and only what it did not find there.
    expect(await server.stopGracefully()).toEqual({ code: 0, signal: null });
    expect(await cacheFiles(serverDir)).toEqual(before);
  });

  test('fills it without running the bundle: no module of the app runs at build time, nor in the image build', async () => {
    const dir = await copyOfBuild('compile-only');
    const probe = pathToFileURL(join(import.meta.dirname, '..', 'process', 'preload', 'count-async-local-storage.mjs')).href;
    const { NODE_COMPILE_CACHE: _elsewhere, ...env } = process.env;
    const run = (args: readonly string[]) => spawnSync(process.execPath, ['--import', probe, ...args], { encoding: 'utf8', timeout: 20_000, env });
    // The probe sees the bundle run: React's renderer makes an AsyncLocalStorage as its module runs.
    const ran = run(['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(join(dir, SERVER_BUNDLE)).href)})`]);
    expect(ran.stdout).toMatch(/AsyncLocalStorage instances: [1-9]/);
    await rm(join(dir, COMPILE_CACHE_DIR), { recursive: true, force: true });
    const filled = run([join(dir, 'fill-compile-cache.js')]);
    expect(filled.stderr).toBe('');
    expect(filled.status).toBe(0);
    // Before, filling imported the bundle, which ran it and every app module it holds.
    expect(filled.stdout).toContain('AsyncLocalStorage instances: 0');
    // And the cache it wrote is the one a start compiles the bundle with.
    const server = await start(dir);
    expect(server.stderr()).toContain(accepted(dir));
  });

  test('compiles a bundle changed after its cache was filled from its source, not from that cache', async () => {
    const changed = await copyOfBuild('changed');
    await appendFile(join(changed, SERVER_BUNDLE), '\n// changed after the cache was filled\n');
    const server = await start(changed);
    expect(server.listening()?.compileCache).toMatchObject({ status: 'enabled' });
    expect(server.stderr()).toContain(`for ESM ${pathToFileURL(join(changed, SERVER_BUNDLE)).href}`);
    expect(server.stderr()).not.toContain(accepted(changed));
    expect((await fetch(`${server.origin}/`)).status).toBe(200);
  });

  test('starts without the cache, and says why in its "listening" line, when Node cannot use the folder or is told not to', async () => {
    const blocked = await copyOfBuild('blocked');
    // A file where the folder should be: Node cannot make its folder there, whoever runs it.
    await rm(join(blocked, COMPILE_CACHE_DIR), { recursive: true });
    await writeFile(join(blocked, COMPILE_CACHE_DIR), 'not a folder\n');
    const failed = await start(blocked);
    expect(failed.listening()?.compileCache).toEqual({ status: 'failed', message: expect.stringMatching(/\S/) });
    expect((await fetch(`${failed.origin}/`)).status).toBe(200);

    const disabled = await start(serverDir, { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(disabled.listening()?.compileCache).toEqual({ status: 'disabled', message: expect.stringContaining('NODE_DISABLE_COMPILE_CACHE') });
    expect(disabled.stderr()).not.toContain(accepted(serverDir));
    expect((await fetch(`${disabled.origin}/`)).status).toBe(200);
  });
});
