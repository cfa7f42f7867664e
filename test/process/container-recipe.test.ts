import { spawn, spawnSync, type SpawnOptions } from 'node:child_process';
import { appendFile, chmod, chown, cp, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { freePort } from '../../scripts/lib/loopback.ts';
import { LOCAL_CSRF_SECRET } from '../../scripts/lib/spawn-entry.ts';
import { COMPILE_CACHE_DIR } from '../../server/compile-cache.ts';
import { FIXTURE_CLIENT_DIR, FIXTURE_MAIN_DIR } from '../support/fixture-server-build.ts';

/**
 * There is no Docker engine here, so this runs the image's recipe by hand: what the final stage
 * copies, copied into an empty folder (the build stage's files from a local build), its
 * compile cache filled by its own RUN line as the user the server runs as and then handed to
 * root, the Dockerfile's own CMD to start as that user, its own HEALTHCHECK to probe. The image
 * holds no node_modules: the server bundle carries its packages, prom-client (loaded only when
 * metrics are on) included, and the folder proves it by resolving none. If the recipe rots, this
 * fails.
 */
const ROOT = join(import.meta.dirname, '..', '..');
/** The build stage's WORKDIR: `COPY --from=build /app/dist/server` copies what `npm run build` made there. */
const BUILD_WORKDIR = '/app/';
/**
 * What `npm run build` leaves in the build stage, as this test takes it: the product entry and
 * the client built around the framework's fixture app (fixture-server-build.ts), not the app's,
 * whose routes and settings (a secret of its own, say) are the app's to change.
 */
const BUILT: Readonly<Record<string, string>> = { 'dist/server': FIXTURE_MAIN_DIR, 'dist/client': FIXTURE_CLIENT_DIR };
let workdir: string | undefined;
afterAll(async () => {
  if (workdir === undefined) return;
  // A test run that is not root made the cache read-only by mode; give it back to remove it.
  await chmodTree(join(workdir, 'dist', 'server', COMPILE_CACHE_DIR), 0o755, 0o644).catch(() => undefined);
  await rm(workdir, { recursive: true, force: true });
});

/**
 * The image's `node` user: a user who is not root and does not own the code. Run as root (as CI
 * is), the tests take `nobody`, and the cache is root's, as in the image; otherwise the test's
 * own user, and the cache is made read-only by its mode, which binds the owner as root's
 * ownership binds `node`.
 */
const AS_ROOT = process.getuid?.() === 0;
const NOBODY = 65_534;
const imageUser: Pick<SpawnOptions, 'uid' | 'gid'> = AS_ROOT ? { uid: NOBODY, gid: NOBODY } : {};

/** What the recipe's `chown -R root:root` and `chmod -R a+rX,go-w` do to the cache folder. */
async function handToRoot(dir: string): Promise<void> {
  if (!AS_ROOT) return chmodTree(dir, 0o555, 0o444);
  for (const name of ['', ...(await readdir(dir, { recursive: true }))]) await chown(join(dir, name), 0, 0);
  return chmodTree(dir, 0o755, 0o644);
}

async function chmodTree(dir: string, dirMode: number, fileMode: number): Promise<void> {
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    await chmod(join(entry.parentPath, entry.name), entry.isDirectory() ? dirMode : fileMode);
  }
  await chmod(dir, dirMode);
}

/** Every file under `dir` with its size and modification time. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  return Promise.all(files.map(async (file) => `${file} ${(await stat(file)).size} ${(await stat(file)).mtimeMs}`));
}

/** The final stage's instructions, one per line, each with the user it runs as. */
function finalStageSteps(dockerfile: string): { readonly user: string; readonly line: string }[] {
  const finalStage =
    dockerfile
      .replace(/\\\n\s*/g, '')
      .split(/^FROM /m)
      .at(-1) ?? '';
  let user = 'root';
  return finalStage.split('\n').flatMap((line) => {
    const switched = /^USER (\S+)$/.exec(line);
    if (switched?.[1] !== undefined) user = switched[1];
    return /^[A-Z]+ /.test(line) ? [{ user, line }] : [];
  });
}

function jsonArrayAfter(instruction: string, dockerfile: string): string[] {
  const match = new RegExp(`^${instruction}\\s+(?:.*?CMD\\s+)?(\\[.*\\])\\s*$`, 'm').exec(dockerfile.replace(/\\\n\s*/g, ''));
  if (match?.[1] === undefined) throw new Error(`no ${instruction} in exec form in the Dockerfile`);
  const parsed: unknown = JSON.parse(match[1]);
  if (!Array.isArray(parsed) || !parsed.every((part) => typeof part === 'string')) throw new Error(`${instruction} is not a list of strings`);
  return parsed;
}

interface Copy {
  /** The stage copied from; undefined for the build context (the repository). */
  readonly from: string | undefined;
  readonly source: string;
  readonly target: string;
}

/** The final stage's COPY lines, one source each. */
function finalStageCopies(dockerfile: string): Copy[] {
  const finalStage =
    dockerfile
      .replace(/\\\n\s*/g, '')
      .split(/^FROM /m)
      .at(-1) ?? '';
  const copies = [...finalStage.matchAll(/^COPY(?: --from=(\S+))? (\S+) (\S+)$/gm)].map(([, from, source = '', target = '']) => ({ from, source, target }));
  expect(copies.length, 'every COPY of the final stage has one source and one target').toBe(finalStage.match(/^COPY /gm)?.length);
  return copies;
}

test('the image recipe copies the built files, starts without node_modules and reports healthy', async () => {
  const dockerfile = await readFile(join(ROOT, 'Dockerfile'), 'utf8');
  const command = jsonArrayAfter('CMD', dockerfile);
  const healthcheck = jsonArrayAfter('HEALTHCHECK', dockerfile);
  expect(command[0]).toBe('node');
  expect(healthcheck[0]).toBe('node');

  const copies = finalStageCopies(dockerfile);
  expect(copies.filter((copy) => copy.from !== undefined).map((copy) => `${copy.from}:${copy.source}`)).toEqual(['build:/app/dist/server', 'build:/app/dist/client']);
  expect(copies.map((copy) => copy.source).join(' ')).not.toContain('node_modules');

  workdir = await mkdtemp(join(tmpdir(), 'image-'));
  const app = workdir;
  for (const { from, source, target } of copies) {
    // From the build stage: the local build; from the build context: the repository.
    if (from !== undefined) expect(source.startsWith(BUILD_WORKDIR), source).toBe(true);
    const built = from === undefined ? source : source.slice(BUILD_WORKDIR.length);
    const local = from === undefined ? join(ROOT, source) : BUILT[built];
    if (local === undefined) throw new Error(`${source}: not a folder the build stage makes (${Object.keys(BUILT).join(', ')})`);
    const destination = target.endsWith('/') ? join(app, target, built.split('/').at(-1) ?? '') : join(app, target);
    await cp(local, destination, { recursive: true });
  }

  // Nothing to load packages from: whatever the server runs comes from its bundle.
  const requireFromImage = createRequire(join(app, 'dist', 'server', 'main.js'));
  for (const name of ['express', 'react-dom', 'pino', 'prom-client']) {
    expect(() => requireFromImage.resolve(name), name).toThrow(/Cannot find module/);
  }

  // The compile cache, as the recipe makes it: a folder for the fill, filled by the recipe's own
  // RUN line as the user the server runs as (Node keeps one cache per user id), then root's.
  const steps = finalStageSteps(dockerfile);
  const fillAt = steps.findIndex((step) => step.line.includes('fill-compile-cache.js'));
  const fill = steps[fillAt];
  const runsAs = steps.findLast((step) => step.line.startsWith('USER '))?.user;
  expect(runsAs).toBe('node');
  const handOver = steps.slice(fillAt + 1).find((step) => step.line.includes(`chown -R root:root dist/server/${COMPILE_CACHE_DIR}`));
  expect(handOver?.user, 'then root takes it').toBe('root');
  expect(handOver?.line).toMatch(/chmod -R a\+rX,go-w /);
  const fillCommand = /^RUN (node \S+)$/.exec(fill?.line ?? '')?.[1]?.split(' ') ?? [];
  expect(fillCommand[0]).toBe('node');
  const cacheDir = join(app, 'dist', 'server', COMPILE_CACHE_DIR);
  await rm(cacheDir, { recursive: true, force: true });
  await mkdir(cacheDir);
  await chmod(app, 0o755);
  if (AS_ROOT) await chown(cacheDir, NOBODY, NOBODY);
  const filled = spawnSync(process.execPath, fillCommand.slice(1), { cwd: app, ...(fill?.user === 'node' ? imageUser : {}), timeout: 30_000, encoding: 'utf8' });
  expect(filled.stderr).toBe('');
  expect(filled.status).toBe(0);
  await handToRoot(cacheDir);
  const cache = await filesUnder(cacheDir);
  expect(cache.length).toBeGreaterThan(0);

  const [port, metricsPort] = [await freePort(), await freePort()];
  // The image sets no CSRF_SECRET (nor an app's own secrets): a deployment passes its own (docs/deployment.md), as here.
  // Metrics on, so prom-client, imported only then, has to come out of the bundle too.
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    CSRF_SECRET: LOCAL_CSRF_SECRET,
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    METRICS_HOST: '127.0.0.1',
    SHUTDOWN_DELAY_MS: '0',
  };
  // The image's node is Node 24; here the pinned one (node_modules/.bin/node) stands in for it.
  expect(process.versions.node.split('.')[0]).toBe('24');
  // Node says on stderr, when asked, which module it compiled with the cache.
  const server = spawn(process.execPath, command.slice(1), { cwd: app, env: { ...env, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' }, ...imageUser, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  let stderr = '';
  server.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  try {
    const listening = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "listening" line within 10 s; stderr: ${stderr}`)), 10_000);
      let stdout = '';
      server.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const line = stdout.split('\n').find((text) => text.includes('"msg":"listening"'));
        if (line !== undefined) {
          clearTimeout(timer);
          resolve(line);
        }
      });
    });
    expect(JSON.parse(listening)).toMatchObject({ compileCache: { status: 'enabled', directory: cacheDir } });
    expect(stderr).toContain(`V8 code cache for ESM ${pathToFileURL(join(app, 'dist', 'server', 'server.js')).href} was accepted`);
    const probe = spawnSync(process.execPath, healthcheck.slice(1), { cwd: app, env, ...imageUser, timeout: 10_000 });
    expect(probe.status).toBe(0);
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/assets/home-');
    expect((await fetch(`http://127.0.0.1:${port}/no/such/page`)).status).toBe(404);
    const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scrape.status).toBe(200);
    const series = await scrape.text();
    expect(series).toContain('http_requests_total{route="/",method="GET",status="200"} 1');
    expect(series).toContain('process_resident_memory_bytes');
  } finally {
    server.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  // Nothing but Node's debug lines, which were asked for: no warning.
  expect(stderr.split('\n').filter((line) => line !== '' && !line.startsWith('[compile cache]'))).toEqual([]);
  expect(await filesUnder(cacheDir)).toEqual(cache);

  // A bundle the cache does not match: Node compiles it from source and, as it exits, would write
  // its code to the folder, which it cannot. It does not, and says nothing.
  await appendFile(join(app, 'dist', 'server', 'server.js'), '\n// not the bundle the cache was filled for\n');
  const stale = spawn(process.execPath, command.slice(1), { cwd: app, env, ...imageUser, stdio: ['ignore', 'ignore', 'pipe'] });
  const staleExited = new Promise<number | null>((resolve) => stale.once('exit', (code) => resolve(code)));
  let staleStderr = '';
  stale.stderr?.on('data', (chunk: Buffer) => {
    staleStderr += chunk.toString();
  });
  try {
    await waitForStatus(`http://127.0.0.1:${port}/`, 200);
  } finally {
    stale.kill('SIGTERM');
  }
  expect(await staleExited).toBe(0);
  expect(staleStderr).toBe('');
  expect(await filesUnder(cacheDir)).toEqual(cache);
}, 60_000);

/** Polls `url` until it answers `status`; a refused connection means not listening yet. */
async function waitForStatus(url: string, status: number): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (performance.now() < deadline) {
    const answered = await fetch(url).then(
      (res) => res.status,
      () => 0,
    );
    if (answered === status) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${url} did not answer ${status} within 10 s`);
}
