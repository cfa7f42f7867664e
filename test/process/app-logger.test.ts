import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildServer } from '../../scripts/build-server.ts';
import { spawnEntry, type EntryProcess } from '../../scripts/lib/spawn-entry.ts';
import { waitFor } from '../support/build-app.ts';
import { FIXTURE_CLIENT_DIR } from '../support/fixture-server-build.ts';

/**
 * The app's logger options in the built process (docs/observability.md#the-apps-logger): the
 * production entry built around an app whose declaration sends its lines to stderr, adds a
 * field to each, redacts the error's stack and sets its level. Started with LOG_LEVEL=error.
 */
const OUT_DIR = join(import.meta.dirname, '..', '..', 'dist', 'fixtures', 'logger-main');

/** A JSON line as its object; anything else kept as `{ raw }`, so that it shows in a failure. */
function parsed(line: string): Record<string, unknown> {
  try {
    return JSON.parse(line);
  } catch {
    return { raw: line };
  }
}

let running: EntryProcess;
const stdout: string[] = [];
const stderr: Record<string, unknown>[] = [];

beforeAll(async () => {
  await buildServer(OUT_DIR, join(import.meta.dirname, '..', 'support', 'logger-fixture-app.ts'));
  running = spawnEntry(join(OUT_DIR, 'main.js'), {
    env: { PORT: '0', HOST: '127.0.0.1', ASSETS_DIR: FIXTURE_CLIENT_DIR, LOG_LEVEL: 'error', SHUTDOWN_DELAY_MS: '0', OVERLOAD_GUARD: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { stdout: out, stderr: err } = running.child;
  if (out === null || err === null) throw new Error('expected piped output');
  createInterface({ input: out }).on('line', (line) => stdout.push(line));
  createInterface({ input: err }).on('line', (line) => stderr.push(parsed(line)));
  await waitFor(() => stderr.some((line) => line.msg === 'listening'), 15_000, 'the listening line on stderr');
}, 60_000);

afterAll(async () => {
  await running?.stop('SIGTERM');
});

describe("the built process with the app's logger options", () => {
  test('writes every line to its destination at its level, with its mixin, the redacted path left out', async () => {
    const listening = stderr.find((line) => line.msg === 'listening');
    // Info, though LOG_LEVEL says error: the app's level.
    expect(listening).toMatchObject({ level: 30, service: 'logger-fixture' });
    const answer = await fetch(`http://127.0.0.1:${String(listening?.port)}/fixtures/throw`);
    expect(answer.status).toBe(500);
    await answer.text();
    await waitFor(() => stderr.some((line) => line.msg === 'request completed'), 5_000, 'the completion line');
    const error = stderr.find((line) => line.msg === 'server error');
    expect(error).toMatchObject({ level: 50, service: 'logger-fixture', err: { message: 'fixture: thrown on the server' } });
    expect(error?.err).not.toHaveProperty('stack');
    expect(stderr.find((line) => line.msg === 'request completed')).toMatchObject({ status: 500, service: 'logger-fixture' });
    // Nothing on stdout: the app's destination replaces it.
    expect(stdout).toEqual([]);
  });
});
