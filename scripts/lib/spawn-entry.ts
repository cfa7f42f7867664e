import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface EntryProcess {
  readonly child: ChildProcess;
  /** Settles when the process exits, however it ends. */
  readonly exited: Promise<Exit>;
  /**
   * Sends `signal` unless the process is gone and waits for its exit. After a gentler signal
   * than SIGKILL, a process still running `graceMs` later gets SIGKILL.
   */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

export interface EntryOptions {
  /** On top of this process's environment and `NODE_ENV=production`. */
  readonly env?: Readonly<Record<string, string>>;
  /** Node's own flags, before the entry (e.g. `--cpu-prof`). */
  readonly execArgv?: readonly string[];
  readonly stdio: StdioOptions;
}

/**
 * Runs a bundled server entry with the Node that runs the caller (the pinned Node 24), in
 * production mode unless `env` says otherwise. The one way the tests and the bench start servers.
 */
export function spawnEntry(entry: string, { env = {}, execArgv = [], stdio }: EntryOptions): EntryProcess {
  const child = spawn(process.execPath, [...execArgv, entry], { env: { ...process.env, NODE_ENV: 'production', ...env }, stdio });
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  async function stop(signal: NodeJS.Signals = 'SIGKILL', graceMs = 10_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      if (signal !== 'SIGKILL') timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    }
    await exited;
    clearTimeout(timer);
  }

  return { child, exited, stop };
}
