import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildServer } from '../../scripts/build-server.ts';
import { spawnEntry } from '../../scripts/lib/spawn-entry.ts';
import { waitFor } from '../support/build-app.ts';
import { FIXTURE_CLIENT_DIR } from '../support/fixture-server-build.ts';

/**
 * The app's onStart and onClose in the built process (docs/lifecycle.md#the-apps-hooks), with a
 * real SIGTERM: the production entry built around test/support/hooks-fixture-app.ts.
 */
const OUT_DIR = join(import.meta.dirname, '..', '..', 'dist', 'fixtures', 'hooks-main');
const MAIN = join(OUT_DIR, 'main.js');

beforeAll(async () => {
  await buildServer(OUT_DIR, join(import.meta.dirname, '..', 'support', 'hooks-fixture-app.ts'));
}, 60_000);

function start(env: Record<string, string> = {}, args: readonly string[] = []) {
  const running = spawnEntry(MAIN, {
    args,
    env: { PORT: '0', HOST: '127.0.0.1', ASSETS_DIR: FIXTURE_CLIENT_DIR, SHUTDOWN_DELAY_MS: '0', OVERLOAD_GUARD: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  let stderr = '';
  const { stdout, stderr: err } = running.child;
  if (stdout === null || err === null) throw new Error('expected piped output');
  createInterface({ input: stdout }).on('line', (line) => lines.push(JSON.parse(line)));
  err.on('data', (chunk) => (stderr += chunk));
  return { running, lines, stderr: () => stderr };
}

describe("the app's hooks in the built process", () => {
  test('onClose runs once the server has drained, after the in-flight answer, before the exit 0', async () => {
    const { running, lines } = start();
    await waitFor(() => lines.some((line) => line.msg === 'listening'), 15_000, 'listening');
    const port = lines.find((line) => line.msg === 'listening')?.port;
    const slow = fetch(`http://127.0.0.1:${String(port)}/fixtures/slow?ms=400`).then(async (res) => ({ status: res.status, body: await res.text() }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    running.child.kill('SIGTERM');
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('</html>');
    expect(await running.exited).toEqual({ code: 0, signal: null });
    const order = lines.map((line) => line.msg).filter((msg) => ['request completed', 'app closed', 'shutdown complete'].includes(String(msg)));
    expect(order).toEqual(['request completed', 'app closed', 'shutdown complete']);
  });

  test('an onClose that throws is logged once and the exit code is 1', async () => {
    const { running, lines } = start({ HOOKS_FAIL_CLOSE: '1' });
    await waitFor(() => lines.some((line) => line.msg === 'listening'), 15_000, 'listening');
    running.child.kill('SIGTERM');
    expect(await running.exited).toEqual({ code: 1, signal: null });
    expect(lines.filter((line) => line.msg === 'app onClose failed')).toEqual([
      expect.objectContaining({ level: 50, err: expect.objectContaining({ message: 'fixture: the pool would not end' }) }),
    ]);
  });

  test('--prepare runs onStart, then onClose, and exits 0 without listening: a release step before the instances start', async () => {
    const { running, lines, stderr } = start({}, ['--prepare']);
    expect(await running.exited).toEqual({ code: 0, signal: null });
    expect(lines.map((line) => line.msg)).toEqual(['app closed', 'app prepared: onStart ran, nothing listened']);
    expect(stderr()).toBe('');
  });

  test('--prepare with an onStart that throws: its fatal line and exit 78', async () => {
    const { running, lines } = start({ HOOKS_FAIL_START: '1' }, ['--prepare']);
    expect(await running.exited).toEqual({ code: 78, signal: null });
    expect(lines).toEqual([expect.objectContaining({ level: 60, exitCode: 78, msg: expect.stringContaining('app onStart failed: migration 0002-fixture') })]);
  });

  test('an onStart that throws stops the start: one fatal line, exit 78, nothing listening', async () => {
    const { running, lines, stderr } = start({ HOOKS_FAIL_START: '1' });
    expect(await running.exited).toEqual({ code: 78, signal: null });
    expect(lines).toEqual([expect.objectContaining({ level: 60, exitCode: 78, msg: 'app onStart failed: migration 0002-fixture failed: relation "entries" already exists' })]);
    expect(stderr()).toBe('');
  });
});
