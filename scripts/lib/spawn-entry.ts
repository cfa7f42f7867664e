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

/**
 * The `CSRF_SECRET` of servers started here, which run in production mode and so need one: a
 * fixed value for tests and the bench, never for a deployment. This process's own
 * `CSRF_SECRET`, or `env`'s (`''` for none), wins.
 */
export const LOCAL_CSRF_SECRET = 'local-test-and-bench-secret-not-for-deployment';

/**
 * The same for `SESSION_SECRET`, the variable the session recipe (docs/sessions.md) reads: an app
 * with sessions needs one in production, and the entries started here are the app's.
 */
export const LOCAL_SESSION_SECRET = 'local-test-and-bench-session-secret-not-for-deployment';

export interface EntryOptions {
  /** On top of this process's environment, `NODE_ENV=production`, `CSRF_SECRET=LOCAL_CSRF_SECRET` and `SESSION_SECRET=LOCAL_SESSION_SECRET`. */
  readonly env?: Readonly<Record<string, string>>;
  /** Node's own flags, before the entry (e.g. `--cpu-prof`). */
  readonly execArgv?: readonly string[];
  /** The entry's own arguments, after it (e.g. `--prepare`). */
  readonly args?: readonly string[];
  readonly stdio: StdioOptions;
}

/**
 * Runs a bundled server entry with the Node that runs the caller (the pinned Node 24), in
 * production mode (with a local `CSRF_SECRET` and `SESSION_SECRET`) unless `env` says otherwise. The one way the tests and the bench start servers.
 */
export function spawnEntry(entry: string, { env = {}, execArgv = [], args = [], stdio }: EntryOptions): EntryProcess {
  const child = spawn(process.execPath, [...execArgv, entry, ...args], {
    env: { CSRF_SECRET: LOCAL_CSRF_SECRET, SESSION_SECRET: LOCAL_SESSION_SECRET, ...process.env, NODE_ENV: 'production', ...env },
    stdio,
  });
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
