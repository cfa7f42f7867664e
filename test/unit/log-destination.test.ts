import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as turnEnded } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { createBatchedStdout } from '../../server/observability/log-destination.ts';

const LOGGER_MODULE = join(import.meta.dirname, '..', '..', 'server', 'observability', 'logger.ts');

describe('the log destination', () => {
  const dir = mkdtempSync(join(tmpdir(), 'log-destination-'));
  const fds: number[] = [];
  afterEach(() => {
    for (const fd of fds.splice(0)) closeSync(fd);
  });

  function fileDestination(name: string) {
    const path = join(dir, name);
    const fd = openSync(path, 'w');
    fds.push(fd);
    return { destination: createBatchedStdout(fd), read: () => readFileSync(path, 'utf8') };
  }

  test('writes the lines of one turn of the event loop together, once the turn is over', async () => {
    const { destination, read } = fileDestination('turn.log');
    destination.write('{"n":1}\n');
    destination.write('{"n":2}\n');
    destination.write('{"n":3}\n');
    expect(read()).toBe('');
    await turnEnded();
    expect(read()).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
    destination.write('{"n":4}\n');
    await turnEnded();
    expect(read()).toBe('{"n":1}\n{"n":2}\n{"n":3}\n{"n":4}\n');
  });

  test("flushSync and pino's flush write what waits at once", () => {
    const { destination, read } = fileDestination('flush.log');
    destination.write('a\n');
    destination.flushSync();
    expect(read()).toBe('a\n');
    let called = false;
    destination.write('b\n');
    destination.flush(() => {
      called = true;
    });
    expect(called).toBe(true);
    expect(read()).toBe('a\nb\n');
  });

  // The last line at fatal, which pino writes at once itself, and at info, which waits for the
  // end of a turn that never comes: the exit hook must write it.
  test.each([
    ['process.exit()', 'fatal', 'process.exit(3)', 3],
    ['an uncaught exception', 'fatal', "throw new Error('boom')", 1],
    ['process.exit()', 'info', 'process.exit(3)', 3],
    ['an uncaught exception', 'info', "throw new Error('boom')", 1],
  ])("the process's last lines reach stdout when it ends by %s, the last at %s", (_how, level, ending, code) => {
    const script = [
      `import { createLogger } from ${JSON.stringify(LOGGER_MODULE)};`,
      "const logger = createLogger({ level: 'info' });",
      "for (let i = 0; i < 500; i += 1) logger.info({ i }, 'line');",
      `logger.${level}('last words');`,
      ending,
    ].join('\n');
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 10_000 });
    expect(child.status).toBe(code);
    const lines = child.stdout
      .trim()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { msg: string });
    expect(lines).toHaveLength(501);
    expect(lines.at(-1)?.msg).toBe('last words');
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));
});
