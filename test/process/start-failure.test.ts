import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { waitFor } from '../support/build-app.ts';
import { startServerEntry, type ServerProcess } from '../support/server-process.ts';
import { freePort } from '../../scripts/lib/loopback.ts';
import { LOCAL_CSRF_SECRET } from '../../scripts/lib/spawn-entry.ts';
import { START_EXIT } from '../../server/start-server.ts';
import { FIXTURE_MAIN_ENTRY } from '../support/fixture-server-build.ts';

/**
 * The product's own entry (built around the fixture app), as `npm start` runs it: a start that
 * cannot go on is one fatal JSON line on stdout naming the cause and the setting, nothing on
 * stderr, no stack, and the exit code docs/deployment.md lists for it.
 */
const ACCEPT_FAILURE = pathToFileURL(join(import.meta.dirname, 'preload', 'accept-failure.mjs')).href;

interface Ended {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runUntilExit(env: Record<string, string>): Ended {
  const result = spawnSync(process.execPath, [FIXTURE_MAIN_ENTRY], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      CSRF_SECRET: LOCAL_CSRF_SECRET,
      PORT: '0',
      HOST: '127.0.0.1',
      SHUTDOWN_DELAY_MS: '0',
      ...env,
    },
    encoding: 'utf8',
    timeout: 10_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Exactly one line, at fatal, without a stack anywhere in the output. */
function onlyFatalLine(ended: Ended): Record<string, unknown> {
  expect(ended.stderr).toBe('');
  expect(ended.stdout).not.toMatch(/\bat .+:\d+:\d+/);
  const lines = ended.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  const line: unknown = JSON.parse(lines[0] ?? '');
  expect(line).toMatchObject({ level: 60 });
  expect(line).not.toHaveProperty('err');
  return line as Record<string, unknown>;
}

let blocker: Server;
let takenPort: number;
beforeAll(async () => {
  // Someone else's listener on the port the server is told to use.
  blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const address = blocker.address();
  takenPort = typeof address === 'object' && address !== null ? address.port : 0;
});
afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

describe('a start that cannot go on', () => {
  test('PORT in use: exit 1 and one fatal line naming PORT and EADDRINUSE', () => {
    const ended = runUntilExit({ PORT: String(takenPort) });
    expect(ended.status).toBe(START_EXIT.cannotListen);
    expect(ended.status).toBe(1);
    const line = onlyFatalLine(ended);
    expect(line).toMatchObject({ setting: 'PORT', port: takenPort, host: '127.0.0.1', code: 'EADDRINUSE', exitCode: 1 });
    expect(line.msg).toMatch(/^cannot listen on PORT .*address already in use/);
  });

  test('HOST not an address of this machine: exit 1 and one fatal line naming HOST', () => {
    // 192.0.2.1 is TEST-NET-1: documentation only, never assigned to an interface.
    const ended = runUntilExit({ HOST: '192.0.2.1' });
    expect(ended.status).toBe(1);
    expect(onlyFatalLine(ended)).toMatchObject({ setting: 'HOST', host: '192.0.2.1', code: 'EADDRNOTAVAIL', exitCode: 1 });
  });

  test('METRICS_PORT in use: exit 1 and one fatal line naming METRICS_PORT, before the public port takes traffic', () => {
    const ended = runUntilExit({ METRICS_PORT: String(takenPort), METRICS_HOST: '127.0.0.1' });
    expect(ended.status).toBe(1);
    const line = onlyFatalLine(ended);
    expect(line).toMatchObject({ setting: 'METRICS_PORT', port: takenPort, code: 'EADDRINUSE', exitCode: 1 });
    expect(line.msg).toMatch(/^cannot listen on METRICS_PORT .*address already in use/);
  });

  describe('ASSETS_DIR without a usable client build', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'no-build-'));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    test('no manifest: exit 66 (EX_NOINPUT) and one fatal line naming ASSETS_DIR and the file', () => {
      const ended = runUntilExit({ ASSETS_DIR: dir });
      expect(ended.status).toBe(START_EXIT.noClientBuild);
      expect(ended.status).toBe(66);
      const line = onlyFatalLine(ended);
      expect(line).toMatchObject({ setting: 'ASSETS_DIR', assetsDir: dir, file: join(dir, 'manifest.json'), code: 'ENOENT', exitCode: 66 });
      expect(line.msg).toContain('ASSETS_DIR');
      expect(line.msg).toContain('npm run build');
    });

    test('a manifest that is not one: exit 66 and one fatal line naming ASSETS_DIR', async () => {
      await writeFile(join(dir, 'manifest.json'), '{"pages": ');
      const ended = runUntilExit({ ASSETS_DIR: dir });
      expect(ended.status).toBe(66);
      expect(onlyFatalLine(ended)).toMatchObject({ setting: 'ASSETS_DIR', assetsDir: dir, exitCode: 66 });
    });
  });
});

describe('a server error after the start', () => {
  let server: ServerProcess | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  test('accept() failing (EMFILE) on either port is logged at error and both keep serving', async () => {
    const metricsPort = await freePort();
    server = await startServerEntry(FIXTURE_MAIN_ENTRY, {
      PORT: '0',
      HOST: '127.0.0.1',
      METRICS_PORT: String(metricsPort),
      METRICS_HOST: '127.0.0.1',
      NODE_OPTIONS: `--import=${ACCEPT_FAILURE}`,
    });
    const running = server;
    running.child.kill('SIGUSR2');
    const errors = () => running.logs.filter((line) => line.level === 50);
    await waitFor(() => errors().length >= 2, 5_000, 'an error line per listener');
    expect(errors()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ setting: 'PORT', code: 'EMFILE', syscall: 'accept' }),
        expect.objectContaining({ setting: 'METRICS_PORT', code: 'EMFILE', syscall: 'accept' }),
      ]),
    );
    expect(running.logs.filter((line) => line.level === 60)).toEqual([]);
    expect((await fetch(`${running.origin}/healthz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(200);
    expect(running.child.exitCode).toBeNull();
    running.child.kill('SIGTERM');
    expect(await running.exited).toEqual({ code: 0, signal: null });
  });
});
