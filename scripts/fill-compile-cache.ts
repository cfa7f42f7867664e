import { execFile } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { COMPILE_CACHE_DIR } from '../server/compile-cache.ts';

const run = promisify(execFile);

/** Loading the bundle takes well under a second; far longer means the run is stuck. */
const FILL_DEADLINE_MS = 30_000;

/**
 * Fills the compile cache of a server build (docs/deployment.md#compile-cache) by running its
 * fill-compile-cache.js with the Node that runs the build, so it serves `npm start`, the tests
 * and the bench; the image fills its own with its own Node (Dockerfile). The folder is emptied
 * first, so it holds the code of this bundle for this Node and no other. Without
 * `NODE_COMPILE_CACHE` in the child's environment, which would send the cache elsewhere.
 *
 * A bundle that cannot load leaves no cache: that is said on stderr and the build goes on, so
 * `npm test` still runs and its tests say what is broken (a start without the cache only takes
 * longer).
 */
export async function fillCompileCache(serverDir: string): Promise<void> {
  const dir = join(serverDir, COMPILE_CACHE_DIR);
  await rm(dir, { recursive: true, force: true });
  const { NODE_COMPILE_CACHE: _elsewhere, NODE_DISABLE_COMPILE_CACHE: _off, ...env } = process.env;
  try {
    await run(process.execPath, [join(serverDir, 'fill-compile-cache.js')], { env, timeout: FILL_DEADLINE_MS, killSignal: 'SIGKILL' });
  } catch (error) {
    const { stderr = '', killed } = error as { stderr?: string; killed?: boolean };
    const why = killed === true ? `it did not finish within ${FILL_DEADLINE_MS / 1000} s` : whatFailed(stderr);
    process.stderr.write(`build: no compile cache in ${dir}, the server will start without it: ${why}\n`);
    return;
  }
  if ((await filesUnder(dir)) === 0) process.stderr.write(`build: nothing was written to ${dir}, the server will start without a compile cache\n`);
}

async function filesUnder(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).length;
}

/** What a crash says, without the stack or the bundle's minified source. */
function whatFailed(text: string): string {
  const lines = text
    .trim()
    .split('\n')
    .filter((line) => line.length < 500);
  return lines.find((line) => /^\w*Error\b/.test(line)) ?? lines.at(-1) ?? '';
}
