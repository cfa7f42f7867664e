import { fork, type ChildProcess } from 'node:child_process';
import { LOCAL_CSRF_SECRET } from '../lib/spawn-entry.ts';
import { isPortMessage, isServerMemory, type ServerMemory, type ServerRequest } from './messages.ts';

export interface MeasuredServer {
  readonly pid: number;
  readonly origin: string;
  ask(request: ServerRequest): Promise<ServerMemory>;
  stop(): Promise<void>;
}

const START_DEADLINE_MS = 15_000;
const ANSWER_DEADLINE_MS = 10_000;

function nextMessage<T>(child: ChildProcess, accept: (message: unknown) => message is T, what: string, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`measured server: no ${what} in ${timeoutMs} ms`)), timeoutMs);
    function onMessage(message: unknown): void {
      if (accept(message)) finish(undefined, message);
    }
    function onExit(code: number | null): void {
      finish(new Error(`measured server exited (${code}) before its ${what}`));
    }
    function finish(error: Error | undefined, message?: T): void {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error !== undefined || message === undefined) reject(error ?? new Error(`measured server: no ${what}`));
      else resolve(message);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export interface MeasuredServerOptions {
  readonly tailMs: number;
  /** A brotli window for the app's compressors instead of its own. */
  readonly lgwin?: number | undefined;
  /** On top of this process's environment (`MALLOC_ARENA_MAX`, say). */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Forks the bundled measure-server.js with the pinned Node, in production mode, and resolves
 * once it listens on a loopback port.
 */
export async function startMeasuredServer(entry: string, { tailMs, lgwin, env = {} }: MeasuredServerOptions): Promise<MeasuredServer> {
  const child = fork(entry, [String(tailMs), lgwin === undefined ? '' : String(lgwin)], {
    execPath: process.execPath,
    execArgv: ['--expose-gc'],
    env: { CSRF_SECRET: LOCAL_CSRF_SECRET, ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const { port } = await nextMessage(child, isPortMessage, 'port', START_DEADLINE_MS);
    const pid = child.pid;
    if (pid === undefined) throw new Error('measured server has no pid');
    return {
      pid,
      origin: `http://127.0.0.1:${port}`,
      ask(request) {
        const answer = nextMessage(child, isServerMemory, request, ANSWER_DEADLINE_MS);
        child.send(request);
        return answer;
      },
      async stop() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await exited;
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}
