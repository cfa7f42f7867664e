import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { spawnEntry, type EntryProcess } from '../../scripts/lib/spawn-entry.ts';
import { CRASH_EXIT } from '../../server/lifecycle/crash-log.ts';
import { FIXTURE_MAIN_ENTRY } from '../support/fixture-server-build.ts';

// The product's own entry (built around the fixture app), as `npm start` runs it.
const CRASH_ON_SIGNAL = pathToFileURL(join(import.meta.dirname, 'preload', 'crash-on-signal.mjs')).href;

let running: EntryProcess | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/** Starts the entry with the preload, crashes it once it listens, and returns what it printed and how it ended. */
async function crash(kind: 'throw' | 'rejection') {
  const entry = spawnEntry(FIXTURE_MAIN_ENTRY, {
    env: { PORT: '0', HOST: '127.0.0.1', SHUTDOWN_DELAY_MS: '0', CRASH_KIND: kind, NODE_OPTIONS: `--import=${CRASH_ON_SIGNAL}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running = entry;
  let stdout = '';
  let stderr = '';
  entry.child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no "listening" line within 10 s')), 10_000);
    entry.child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('"msg":"listening"')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  entry.child.kill('SIGUSR2');
  const exit = await entry.exited;
  return { exit, stdout, stderr };
}

describe('an error no request owns', () => {
  test.each([
    ['throw', 'uncaughtException', 'TypeError', 'preload: a throw no request owns'],
    ['rejection', 'unhandledRejection', 'Error', 'preload: a rejection nobody awaited'],
  ] as const)('(%s) ends the process with exit 1 and one fatal JSON line carrying the error, its stack and a digest; nothing on stderr', async (kind, origin, name, message) => {
    const { exit, stdout, stderr } = await crash(kind);
    expect(exit).toEqual({ code: CRASH_EXIT, signal: null });
    // Before, Node printed the stack on stderr, as text, and the log said nothing.
    expect(stderr).toBe('');
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const fatal = lines.filter((line) => line.level === 60);
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toMatchObject({ msg: 'process crashed: an error reached no handler', origin, err: { type: name, message } });
    expect(fatal[0]?.digest).toMatch(/^[\w-]{16,}$/);
    const err = fatal[0]?.err as { readonly stack?: unknown } | undefined;
    expect(String(err?.stack)).toContain('crash-on-signal.mjs');
    // It is the last line: nothing runs on after it.
    expect(lines.at(-1)).toBe(fatal[0]);
  });
});
