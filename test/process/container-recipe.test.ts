import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { freePort } from '../../scripts/lib/loopback.ts';

/**
 * There is no Docker engine here, so this runs the image's recipe by hand: a production-only
 * install into an empty folder, the built files copied as the Dockerfile copies them, the
 * Dockerfile's own CMD to start, its own HEALTHCHECK to probe. If the recipe rots, this fails.
 */
const ROOT = join(import.meta.dirname, '..', '..');
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

test('the image recipe installs, starts and reports healthy', async () => {
  const dockerfile = await readFile(join(ROOT, 'Dockerfile'), 'utf8');
  const command = jsonArrayAfter('CMD', dockerfile);
  const healthcheck = jsonArrayAfter('HEALTHCHECK', dockerfile);
  expect(command[0]).toBe('node');
  expect(healthcheck[0]).toBe('node');

  workdir = await mkdtemp(join(tmpdir(), 'image-'));
  const app = workdir;
  await cp(join(ROOT, 'package.json'), join(app, 'package.json'));
  await cp(join(ROOT, 'package-lock.json'), join(app, 'package-lock.json'));
  const install = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: app, encoding: 'utf8', timeout: 120_000 });
  expect(install.status, install.stderr).toBe(0);
  // What the final stage copies from the build stage, copied here from the local build.
  const built = [...dockerfile.matchAll(/^COPY --from=build \/app\/(\S+) \.\/(\S+)$/gm)];
  expect(built.map((match) => match[1])).toEqual(['dist/server', 'dist/client']);
  for (const [, from = '', to = ''] of built) await cp(join(ROOT, from), join(app, to), { recursive: true });

  // Production dependencies only: no build or test tool made it in.
  for (const devOnly of ['esbuild', 'vitest', 'typescript', 'node']) {
    expect(spawnSync('test', ['-e', join(app, 'node_modules', devOnly)]).status, devOnly).not.toBe(0);
  }

  const port = await freePort();
  const env = { ...process.env, NODE_ENV: 'production', PORT: String(port), SHUTDOWN_DELAY_MS: '0' };
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
  } finally {
    server.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
}, 180_000);
