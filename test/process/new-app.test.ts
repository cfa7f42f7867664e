import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort } from '../../scripts/lib/loopback.ts';
import { buildPackage } from '../../scripts/package/build-package.ts';
import { waitFor } from '../support/build-app.ts';

/**
 * The framework as an app outside this repository gets it: `npm run package` packs it, the
 * package's `init` makes a new app from the template in a temporary folder, which installs the
 * tarball (its other packages from npm's cache where they are, as CI's `npm ci` left them), builds,
 * starts its production server, answers a page, an unknown URL and a thrown error, runs its own
 * tests and stops cleanly on SIGTERM.
 */

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const dir = mkdtempSync(join(tmpdir(), 'new-app-'));
const appDir = join(dir, 'my-app');
let tarball = '';
let server: ChildProcess | undefined;
const logs: Record<string, unknown>[] = [];
let origin = '';
/** What npm install printed on stderr: its warnings. */
let installed = '';

/** This process's environment without what vitest set for itself, which the app's own vitest must not inherit. */
const CLEAN_ENV = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV')), NO_COLOR: '1' };

function run(command: string, args: readonly string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', env: CLEAN_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
}

beforeAll(async () => {
  tarball = buildPackage();
  run(process.execPath, [join(import.meta.dirname, '..', '..', 'dist', 'package', 'scripts', 'cli.js'), 'init', appDir], dir);
  // Warnings kept: the install must print none the app could avoid (the install scripts it needs are allowed).
  const install = spawnSync(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn', tarball], { cwd: appDir, encoding: 'utf8', env: CLEAN_ENV });
  if (install.status !== 0) throw new Error(`npm install failed: ${install.stderr}`);
  installed = install.stderr;
  run(NPM, ['run', 'build'], appDir);
  server = spawn(process.execPath, [join(appDir, 'dist', 'server', 'main.js')], {
    cwd: appDir,
    env: { ...CLEAN_ENV, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', CSRF_SECRET: 'c'.repeat(40), SHUTDOWN_DELAY_MS: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const listening = new Promise<void>((resolve, reject) => {
    let buffered = '';
    server?.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const parsed: Record<string, unknown> = JSON.parse(line);
        logs.push(parsed);
        if (parsed.msg === 'listening') {
          origin = `http://127.0.0.1:${String(parsed.port)}`;
          resolve();
        }
      }
    });
    server?.once('exit', (code) => reject(new Error(`the new app's server exited with ${String(code)} before listening`)));
  });
  await listening;
}, 240_000);

afterAll(() => {
  server?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('a new app made from the template, on the packed framework', () => {
  test('the tarball holds compiled JavaScript with declarations, the command and the template, and no tests, bench, lab tools or example app', () => {
    const files = run('tar', ['-tzf', tarball], dir).split('\n').filter(Boolean);
    expect(files).toContain('package/shared/index.js');
    expect(files).toContain('package/shared/index.d.ts');
    expect(files).toContain('package/server/index.js');
    expect(files).toContain('package/scripts/cli.js');
    expect(files).toContain('package/template/app/app.ts');
    expect(files.filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts') && !file.startsWith('package/template/'))).toEqual([]);
    expect(files.filter((file) => /^package\/(test|app|scripts\/bench|scripts\/soak|scripts\/compression-memory)\//.test(file))).toEqual([]);
    const manifest: { dependencies: Record<string, string> } = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8'));
    expect(manifest.dependencies['react-stream-shell']).toMatch(/^file:/);
    // The install scripts it needs are allowed, @swc/core's (a fallback download) refused, so its npm install warns of none.
    expect(JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')).allowScripts).toEqual({ '@swc/core': false, esbuild: true, node: true });
    expect(installed).not.toMatch(/install scripts not yet covered/);
    // The app's own ignore files, under their names: its image never takes its node_modules or kept secrets.
    expect(readFileSync(join(appDir, '.dockerignore'), 'utf8').split('\n')).toEqual(expect.arrayContaining(['node_modules', '.react-stream-shell']));
    expect(readFileSync(join(appDir, '.gitignore'), 'utf8').split('\n')).toContain('.react-stream-shell/');
  });

  test('its page is 200, streamed, with the hydrating script and the data from load', async () => {
    const res = await fetch(`${origin}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    const html = await res.text();
    expect(html).toContain('<title>Home · My app</title>');
    expect(html).toContain('Hello from the server.');
    expect(html).toMatch(/<script[^>]+nonce="[^"]+"[^>]*>[^<]*\/assets\/home-[A-Z0-9]+\.js/);
  });

  test('an unknown URL is the 404 status page', async () => {
    const res = await fetch(`${origin}/nowhere`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('<title>404: This page could not be found.</title>');
  });

  test("a thrown error is 500 with the digest of its one error line, in the root layout's boundary", async () => {
    const res = await fetch(`${origin}/?fail`);
    expect(res.status).toBe(500);
    const html = (await res.text()).replaceAll('<!-- -->', '');
    const errors = logs.filter((line) => line.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ route: '/', err: { message: 'the home page was asked to fail' } });
    expect(html).toContain(`Digest: ${String(errors[0]?.digest)}`);
  });

  test("runs the app's own tests (its route types, its type check, then vitest)", () => {
    // The build wrote the route types; the tests write them again themselves.
    expect(readFileSync(join(appDir, '.react-stream-shell', 'types', 'app', 'pages', '+types', 'home.ts'), 'utf8')).toContain('export namespace Route');
    rmSync(join(appDir, '.react-stream-shell'), { recursive: true });
    expect(run(NPM, ['test'], appDir)).toMatch(/Tests\s+2 passed/);
  });

  const routesFile = () => join(appDir, 'app', 'routes.ts');
  const greetPage = () => join(appDir, 'app', 'pages', 'greet.tsx');
  /** A page reading `params[param]`, and the template's table with it at /greet/:name. */
  const greet = (param: string) =>
    [
      "import type { Route } from './+types/greet.ts';",
      `export function load({ params }: Route.LoadContext) { return { name: params.${param}.toUpperCase() }; }`,
      'export default function Greet({ data }: Route.PageProps) { return <p>{data.name}</p>; }',
      '',
    ].join('\n');
  const withGreet = (table: string) => `import * as greet from './pages/greet.tsx';\n${table.replace("route('/', home)", "route('/', home), route('/greet/:name', greet)")}`;

  test("its type check reads a page's parameters from the route table: one its path has compiles, one it lacks does not", () => {
    const routes = routesFile();
    const page = greetPage();
    const table = readFileSync(routes, 'utf8');
    try {
      writeFileSync(routes, withGreet(table));
      writeFileSync(page, greet('name'));
      run(NPM, ['run', 'typecheck'], appDir);
      writeFileSync(page, greet('nom'));
      let output = '';
      try {
        run(NPM, ['run', 'typecheck'], appDir);
      } catch (error) {
        output = String(Reflect.get(Object(error), 'stdout'));
      }
      expect(output).toMatch(/app\/pages\/greet\.tsx\(2,\d+\): error TS2339: Property 'nom' does not exist on type 'LoadParams'/);
    } finally {
      writeFileSync(routes, table);
      rmSync(page, { force: true });
    }
  });

  test('its dev command writes the route types of a route added while it runs', async () => {
    const routes = routesFile();
    const table = readFileSync(routes, 'utf8');
    const types = join(appDir, '.react-stream-shell', 'types', 'app', 'pages', '+types', 'greet.ts');
    const dev = spawn(process.execPath, [join(appDir, 'node_modules', 'react-stream-shell', 'scripts', 'cli.js'), 'dev'], {
      cwd: appDir,
      env: { ...CLEAN_ENV, PORT: String(await freePort()), HOST: '127.0.0.1', DEV_RELOAD_PORT: String(await freePort()) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    dev.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => dev.once('exit', (code) => resolve(code)));
    try {
      await waitFor(() => output.includes('listening'), 30_000, "the dev server's first start");
      expect(existsSync(types)).toBe(false);
      writeFileSync(greetPage(), greet('name'));
      writeFileSync(routes, withGreet(table));
      await waitFor(() => existsSync(types), 30_000, "greet.tsx's route types");
      expect(readFileSync(types, 'utf8')).toContain('export type LoadParams = { readonly name: string };');
    } finally {
      dev.kill('SIGTERM');
      await exited;
      writeFileSync(routes, table);
      rmSync(greetPage(), { force: true });
    }
  }, 90_000);

  test('stops cleanly on SIGTERM: exit 0', async () => {
    const exited = new Promise<number | null>((resolve) => server?.once('exit', (code) => resolve(code)));
    server?.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
