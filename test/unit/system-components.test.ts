import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHROMIUM, NGINX, POSTGRESQL, REQUIRE_SWITCH, SystemComponentError, componentPath, gateSystemComponents, isPresent, type Env } from '../support/system-components.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const PROJECTS = ['app', 'postgres', 'unit', 'process', 'browser', 'proxy', 'cluster'];

/**
 * Stand-ins for the machine's programs, so these tests say the same on a machine with Chromium
 * and nginx as on one without: each prints what the real one prints for its version flag, or
 * fails the way a broken install does.
 */
const FAKES = {
  chromium: '#!/bin/sh\necho "Chromium 156.0.8078.79 built on Debian GNU/Linux 12 (bookworm)"\n',
  nginx: '#!/bin/sh\necho "nginx version: nginx/1.22.1" >&2\n',
  postgres: '#!/bin/sh\necho "postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)"\n',
  broken: '#!/bin/sh\necho "error while loading shared libraries: libnss3.so: cannot open shared object file" >&2\nexit 127\n',
  silent: '#!/bin/sh\nexit 0\n',
} as const;

let dir: string;
const fake = (name: keyof typeof FAKES | 'not-executable' | 'missing'): string => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'system-components-'));
  for (const [name, script] of Object.entries(FAKES)) await writeFile(join(dir, name), script, { mode: 0o755 });
  await writeFile(join(dir, 'not-executable'), FAKES.chromium, { mode: 0o644 });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment of this run, minus anything that would steer the child's gate or vitest. */
function childEnv(overrides: Env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('VITEST') || key === 'FORCE_COLOR' || key === REQUIRE_SWITCH) continue;
    if (key === CHROMIUM.pathVariable || key === NGINX.pathVariable || key === POSTGRESQL.pathVariable) continue;
    env[key] = value;
  }
  return { ...env, NO_COLOR: '1', ...overrides };
}

/**
 * The real vitest, resolving the real vitest.config.ts: `list --filesOnly` goes through the
 * gate and the project list without running a test, in about a second.
 */
function listFiles(env: Env): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITEST, 'list', '--filesOnly'], { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The projects whose files vitest listed, from its `[project] path` lines. */
function listedProjects(run: Run): string[] {
  const names = new Set([...run.stdout.matchAll(/^\[([\w-]+)\] /gm)].map((match) => match[1]));
  return [...names].filter((name) => name !== undefined).sort();
}

function steppedAsideLines(run: Run): string[] {
  return `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => line.includes('stepped aside'));
}

describe('the system component gate, through vitest itself', () => {
  test.concurrent('without Chromium and nginx, their suites step aside with one line each and the rest runs', async () => {
    const run = await listFiles({ CHROMIUM_PATH: fake('missing'), NGINX_PATH: fake('missing'), POSTGRES_PATH: fake('postgres') });
    expect(run.stderr).not.toContain('Error');
    expect(run.code).toBe(0);
    // Exactly these two lines, once each, although vitest evaluates the config once per project.
    expect(steppedAsideLines(run)).toEqual([
      `browser suite stepped aside: Chromium not found at ${fake('missing')} (set CHROMIUM_PATH, or install it: apt-get install -y chromium)`,
      `proxy, cluster suites stepped aside: nginx not found at ${fake('missing')} (set NGINX_PATH, or install it: apt-get install -y nginx)`,
    ]);
    // The process project needs neither; cluster needs nginx as well as PostgreSQL.
    expect(listedProjects(run)).toEqual(['app', 'postgres', 'process', 'unit']);
  }, 30_000);

  test.concurrent('with both there and working, every project runs and nothing steps aside', async () => {
    const run = await listFiles({ CHROMIUM_PATH: fake('chromium'), NGINX_PATH: fake('nginx'), POSTGRES_PATH: fake('postgres'), [REQUIRE_SWITCH]: '1' });
    expect(run.code).toBe(0);
    expect(steppedAsideLines(run)).toEqual([]);
    expect(listedProjects(run)).toEqual([...PROJECTS].sort());
  }, 30_000);

  test.concurrent(`with ${REQUIRE_SWITCH}=1, missing Chromium and nginx fail the run, each named with its install command`, async () => {
    const run = await listFiles({ CHROMIUM_PATH: fake('missing'), NGINX_PATH: fake('missing'), POSTGRES_PATH: fake('postgres'), [REQUIRE_SWITCH]: '1' });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      [
        `Chromium not found at ${fake('missing')}, and ${REQUIRE_SWITCH}=1 requires it (set CHROMIUM_PATH, or install it: apt-get install -y chromium)`,
        `nginx not found at ${fake('missing')}, and ${REQUIRE_SWITCH}=1 requires it (set NGINX_PATH, or install it: apt-get install -y nginx)`,
      ].join('\n'),
    );
    expect(steppedAsideLines(run)).toEqual([]);
    expect(listedProjects(run)).toEqual([]);
  }, 30_000);

  test.concurrent('an nginx that is there but does not start fails the run, without the switch', async () => {
    const run = await listFiles({ CHROMIUM_PATH: fake('chromium'), NGINX_PATH: fake('broken'), POSTGRES_PATH: fake('postgres') });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`nginx at ${fake('broken')} is there but does not run: \`${fake('broken')} -v\` exited with code 127`);
    expect(run.stderr).toContain('libnss3.so');
    expect(run.stderr).toContain('apt-get install -y nginx');
    expect(listedProjects(run)).toEqual([]);
  }, 30_000);
});

describe('the system component gate, called directly', () => {
  const both = (chromium: string, nginx: string, extra: Env = {}): Env => ({ CHROMIUM_PATH: chromium, NGINX_PATH: nginx, POSTGRES_PATH: fake('postgres'), ...extra });

  test('without PostgreSQL the suites that need it step aside (cluster too, nginx being there), naming its package; required, it fails', () => {
    const outcome = gateSystemComponents(PROJECTS, both(fake('chromium'), fake('nginx'), { POSTGRES_PATH: fake('missing') }));
    expect([...outcome.steppedAside]).toEqual(['postgres', 'cluster']);
    expect(outcome.lines).toEqual([
      `postgres, cluster suites stepped aside: PostgreSQL not found at ${fake('missing')} (set POSTGRES_PATH, or install it: apt-get install -y postgresql)`,
    ]);
    expect(() => gateSystemComponents(PROJECTS, both(fake('chromium'), fake('nginx'), { POSTGRES_PATH: fake('missing'), [REQUIRE_SWITCH]: '1' }))).toThrow(
      `PostgreSQL not found at ${fake('missing')}, and ${REQUIRE_SWITCH}=1 requires it (set POSTGRES_PATH, or install it: apt-get install -y postgresql)`,
    );
  });

  test("looks at Debian's paths unless the override variable names another", () => {
    expect(componentPath(CHROMIUM, {})).toBe('/usr/bin/chromium');
    expect(componentPath(NGINX, {})).toBe('/usr/sbin/nginx');
    expect(componentPath(CHROMIUM, { CHROMIUM_PATH: '' })).toBe('/usr/bin/chromium');
    expect(componentPath(CHROMIUM, { CHROMIUM_PATH: '/opt/chromium' })).toBe('/opt/chromium');
    expect(componentPath(NGINX, { NGINX_PATH: '/opt/nginx' })).toBe('/opt/nginx');
  });

  test('counts as present only an executable file', () => {
    expect(isPresent(fake('chromium'))).toBe(true);
    expect(isPresent(fake('not-executable'))).toBe(false);
    expect(isPresent(fake('missing'))).toBe(false);
    expect(isPresent(dir)).toBe(false);
  });

  test('steps aside only the projects of the absent component', () => {
    const outcome = gateSystemComponents(PROJECTS, both(fake('chromium'), fake('missing')));
    expect([...outcome.steppedAside]).toEqual(['proxy', 'cluster']);
    expect(outcome.lines).toEqual([`proxy, cluster suites stepped aside: nginx not found at ${fake('missing')} (set NGINX_PATH, or install it: apt-get install -y nginx)`]);
  });

  test('fails a required nginx that is missing, naming it and its install command', () => {
    expect(() => gateSystemComponents(PROJECTS, both(fake('chromium'), fake('missing'), { [REQUIRE_SWITCH]: '1' }))).toThrow(
      new SystemComponentError(`nginx not found at ${fake('missing')}, and ${REQUIRE_SWITCH}=1 requires it (set NGINX_PATH, or install it: apt-get install -y nginx)`),
    );
  });

  test('fails a Chromium that exits with an error, one that prints no version, and a file that cannot be executed', () => {
    expect(() => gateSystemComponents(PROJECTS, both(fake('broken'), fake('nginx')))).toThrow(
      `Chromium at ${fake('broken')} is there but does not run: \`${fake('broken')} --version\` exited with code 127`,
    );
    expect(() => gateSystemComponents(PROJECTS, both('/bin/false', fake('nginx')))).toThrow('Chromium at /bin/false is there but does not run');
    expect(() => gateSystemComponents(PROJECTS, both(fake('silent'), fake('nginx')))).toThrow(`\`${fake('silent')} --version\` printed no version`);
    expect(() => gateSystemComponents(PROJECTS, both(fake('not-executable'), fake('nginx')))).toThrow(
      `Chromium at ${fake('not-executable')} is not an executable file (set CHROMIUM_PATH, or install it: apt-get install -y chromium)`,
    );
  });

  test('reads the switch strictly, so a value meant as "on" never quietly means "off"', () => {
    for (const value of ['', '0']) {
      expect(gateSystemComponents(PROJECTS, both(fake('missing'), fake('missing'), { [REQUIRE_SWITCH]: value })).steppedAside).toEqual(new Set(['browser', 'proxy', 'cluster']));
    }
    expect(() => gateSystemComponents(PROJECTS, both(fake('chromium'), fake('nginx'), { [REQUIRE_SWITCH]: 'yes' }))).toThrow(`${REQUIRE_SWITCH} must be 1 or 0, not "yes"`);
  });

  test('fails when the config no longer defines a project a component gates', () => {
    expect(() => gateSystemComponents(['unit', 'process', 'browser'], both(fake('chromium'), fake('nginx')))).toThrow(
      'nginx is needed by project(s) proxy, cluster, which vitest.config.ts does not define',
    );
  });
});
