import type { ChildProcess } from 'node:child_process';
import { spawnEntry, type Exit } from '../../scripts/lib/spawn-entry.ts';

export type { Exit };

export interface ServerProcess {
  readonly origin: string;
  readonly port: number;
  /** Every JSON line the server logged, parsed, with `receivedAt` (performance.now()) added. */
  readonly logs: Record<string, unknown>[];
  readonly child: ChildProcess;
  /** Settles when the process exits, however it ends. */
  readonly exited: Promise<Exit>;
  /** SIGKILL if still running; for afterAll/afterEach, so nothing outlives a failed test. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 10_000;

/** One pino line as an object; anything else the process prints is not a log line. */
function parseLogLine(line: string): object | undefined {
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts a bundled server entry (production mode, a free port unless PORT is given, no
 * shutdown delay unless asked) and resolves once it logs "listening". Its log lines are
 * parsed as they arrive, so tests assert on fields.
 */
export function startServerEntry(entry: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  // The overload guard off unless a test turns it on: the suites share two cores with Chromium,
  // nginx and each other, and a late event loop there is the machine's, not an overload the
  // test means (the guard's own tests, test/unit/overload-guard.test.ts, hold its answers).
  const { child, exited, stop: kill } = spawnEntry(entry, { env: { SHUTDOWN_DELAY_MS: '0', OVERLOAD_GUARD: 'off', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const logs: Record<string, unknown>[] = [];
  const stop = () => kill('SIGKILL');

  return new Promise<ServerProcess>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A server that never said it listens is not left behind for the next test to trip on.
      void stop();
      reject(new Error(`${entry} did not log "listening" within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    void exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited before listening: ${JSON.stringify(exit)}`));
    });
    let buffered = '';
    child.stdout?.on('data', function parseLogLines(chunk: Buffer) {
      buffered += chunk.toString();
      for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
        const parsed = parseLogLine(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        if (parsed === undefined) continue;
        const line: Record<string, unknown> = { ...parsed, receivedAt: performance.now() };
        logs.push(line);
        if (line.msg === 'listening' && typeof line.port === 'number') {
          clearTimeout(timer);
          resolve({ origin: `http://127.0.0.1:${line.port}`, port: line.port, logs, child, exited, stop });
        }
      }
    });
  });
}

/**
 * The lines logged so far that match, once at least one has arrived. The log comes through a
 * pipe from another process, so a browser can show a page before its line reaches the test.
 */
export async function loggedLines(server: Pick<ServerProcess, 'logs'>, match: (line: Record<string, unknown>) => boolean, timeoutMs = 5_000): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + timeoutMs;
  while (!server.logs.some(match)) {
    if (Date.now() > deadline) throw new Error(`no matching log line within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return server.logs.filter(match);
}
