import { spawnEntry, type Exit } from '../../scripts/lib/spawn-entry.ts';

export interface StartedEntry {
  readonly origin: string;
  /** The "listening" line, parsed. */
  listening(): Record<string, unknown> | undefined;
  /** Everything the process wrote to stderr so far (Node's own warnings and debug output). */
  stderr(): string;
  /** SIGTERM, then its exit: the way a deployment stops it, so the process runs its exit hooks. */
  stopGracefully(): Promise<Exit>;
  /** SIGKILL if still running; for afterAll, so nothing outlives a failed test. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 10_000;

/**
 * Starts a bundled server entry as server-process.ts does (production mode, no shutdown delay),
 * keeping its stderr apart from its log, and resolves once it logs "listening".
 */
export function startWithStderr(entry: string, env: Record<string, string>): Promise<StartedEntry> {
  const { child, exited, stop } = spawnEntry(entry, { env: { SHUTDOWN_DELAY_MS: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let listening: Record<string, unknown> | undefined;
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });

  return new Promise<StartedEntry>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${entry} did not log "listening" within ${START_TIMEOUT_MS} ms; stderr: ${stderr}`));
    }, START_TIMEOUT_MS);
    void exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited before listening: ${JSON.stringify(exit)}; stderr: ${stderr}`));
    });
    child.stdout?.on('data', function findListening(chunk: Buffer) {
      stdout += chunk.toString();
      if (listening !== undefined) return;
      const line = stdout.split('\n').find((text) => text.includes('"msg":"listening"'));
      if (line === undefined) return;
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed !== 'object' || parsed === null || !('port' in parsed) || typeof parsed.port !== 'number') return;
      listening = { ...parsed };
      clearTimeout(timer);
      resolve({
        origin: `http://127.0.0.1:${parsed.port}`,
        listening: () => listening,
        stderr: () => stderr,
        stopGracefully: async () => {
          await stop('SIGTERM');
          return exited;
        },
        stop: () => stop('SIGKILL'),
      });
    });
  });
}
