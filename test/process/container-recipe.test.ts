import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { freePort } from '../../scripts/lib/loopback.ts';
import { LOCAL_CSRF_SECRET } from '../../scripts/lib/spawn-entry.ts';

/**
 * There is no Docker engine here, so this runs the image's recipe by hand: what the final stage
 * copies, copied into an empty folder (the build stage's files from the local build), the
 * Dockerfile's own CMD to start, its own HEALTHCHECK to probe. The image holds no node_modules:
 * the server bundle carries its packages, prom-client (loaded only when metrics are on)
 * included, and the folder proves it by resolving none. If the recipe rots, this fails.
 */
const ROOT = join(import.meta.dirname, '..', '..');
/** The build stage's WORKDIR: `COPY --from=build /app/dist/server` is the local dist/server. */
const BUILD_WORKDIR = '/app/';
let workdir: string | undefined;
afterAll(async () => {
  if (workdir !== undefined) await rm(workdir, { recursive: true, force: true });
});

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
  const finalStage = dockerfile.replace(/\\\n\s*/g, '').split(/^FROM /m).at(-1) ?? '';
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
    const local = from === undefined ? source : source.slice(BUILD_WORKDIR.length);
    const destination = target.endsWith('/') ? join(app, target, local.split('/').at(-1) ?? '') : join(app, target);
    await cp(join(ROOT, local), destination, { recursive: true });
  }

  // Nothing to load packages from: whatever the server runs comes from its bundle.
  const requireFromImage = createRequire(join(app, 'dist', 'server', 'main.js'));
  for (const name of ['express', 'react-dom', 'pino', 'prom-client']) {
    expect(() => requireFromImage.resolve(name), name).toThrow(/Cannot find module/);
  }

  const [port, metricsPort] = [await freePort(), await freePort()];
  // The image sets no CSRF_SECRET: a deployment passes its own (docs/deployment.md), as here.
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
  const server = spawn(process.execPath, command.slice(1), { cwd: app, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no "listening" line within 10 s')), 10_000);
      server.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('"msg":"listening"')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const probe = spawnSync(process.execPath, healthcheck.slice(1), { cwd: app, env, timeout: 10_000 });
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
}, 60_000);
