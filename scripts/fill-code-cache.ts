import { execFile } from 'node:child_process';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CODE_CACHE } from '../server/load-server.ts';

const run = promisify(execFile);

/** A start and four requests take well under a second; far longer means the run is stuck. */
const FILL_DEADLINE_MS = 30_000;

/**
 * Writes the code cache of a server build (docs/deployment.md#code-cache) by running its
 * fill-code-cache.js with the Node that runs the build: the cache is V8's code for that Node, so
 * it serves `npm start`, the tests and the bench; the image writes its own with its own Node
 * (Dockerfile). Needs the client build in place, as the server does.
 *
 * A server that cannot start or crashes on its first requests leaves no cache: that is said on
 * stderr and the build goes on, so `npm test` still runs and its tests say what is broken (a
 * start without the cache only takes longer; its "listening" line says `absent`).
 */
export async function fillCodeCache(serverDir: string): Promise<void> {
  const file = join(serverDir, CODE_CACHE);
  await rm(file, { force: true });
  try {
    await run(process.execPath, [join(serverDir, 'fill-code-cache.js')], { timeout: FILL_DEADLINE_MS, killSignal: 'SIGKILL' });
  } catch (error) {
    // A crash is on stderr; a start that stopped itself (no client build, exit 66) is a fatal log line on stdout.
    const { stderr = '', stdout = '', code, killed } = error as { stderr?: string; stdout?: string; code?: number | string; killed?: boolean };
    const why = killed === true ? `it did not finish within ${FILL_DEADLINE_MS / 1000} s` : `exit code ${String(code)}: ${whatFailed(stderr) || whatFailed(stdout)}`;
    process.stderr.write(`build: no code cache in ${file}, the server will start without it: ${why}\n`);
    return;
  }
  const written = await stat(file).catch(() => undefined);
  if (written === undefined || written.size === 0) process.stderr.write(`build: ${file} was not written, the server will start without it\n`);
}

/** What a crash or a fatal line says, without the stack or the bundle's minified source. */
function whatFailed(text: string): string {
  const lines = text.trim().split('\n').filter((line) => line.length < 500);
  return lines.find((line) => /^\w*Error\b/.test(line)) ?? lines.at(-1) ?? '';
}
