import type { ChildProcess } from 'node:child_process';

/**
 * Every server the bench has spawned and not yet seen exit. Whatever way the bench ends (done,
 * an error, Ctrl-C, SIGTERM), none of them may outlive it.
 */
const live = new Set<ChildProcess>();
let installed = false;

function killAll(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

function installExitHandlers(): void {
  if (installed) return;
  installed = true;
  // 'exit' handlers run synchronously, and `kill` is synchronous: nothing is left behind.
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping ${live.size} server(s)\n`);
      killAll();
      process.exit(130);
    });
  }
}

export function track(child: ChildProcess): void {
  installExitHandlers();
  live.add(child);
  child.once('exit', () => live.delete(child));
}
