import type { ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { httpGet } from '../lib/http-get.ts';
import { freePort, LOOPBACK } from '../lib/loopback.ts';
import { spawnEntry } from '../lib/spawn-entry.ts';
import { track } from './child-registry.ts';
import { cpuTimeMicros } from './process-cpu.ts';
import { peakRssBytes } from './process-memory.ts';

/** One server the bench can start: a bundled entry run by this (the pinned) Node. */
export interface BenchServerSpec {
  readonly name: string;
  readonly entry: string;
  readonly env: Readonly<Record<string, string>>;
  readonly execArgv?: readonly string[];
}

export interface BenchServer {
  readonly name: string;
  readonly pid: number;
  readonly origin: string;
  /** From `spawn` to the first 200 on `/`: the cold start. */
  readonly readyMs: number;
  /** Peak RSS of the process so far (kernel high-water mark). */
  peakRssBytes(): number | undefined;
  /** CPU time the server has used so far, all threads (process-cpu.ts). */
  cpuTimeMicros(): number | undefined;
  stop(): Promise<void>;
}

const READY_DEADLINE_MS = 15_000;
const STOP_DEADLINE_MS = 10_000;
const STDERR_TAIL = 4_096;

/** Polls `/` until it answers 200; refused connections mean "not listening yet". */
async function firstOk(origin: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = performance.now() + READY_DEADLINE_MS;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`server exited (${child.exitCode ?? child.signalCode}) before answering:\n${stderr()}`);
    }
    const status = await httpGet(`${origin}/`, 1_000).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return;
    // Short enough to resolve a cold start to about a millisecond, long enough not to steal its CPU.
    await sleep(status === 0 ? 1 : 20);
  }
  throw new Error(`server did not answer 200 on / within ${READY_DEADLINE_MS} ms:\n${stderr()}`);
}

/**
 * Spawns a server on a free loopback port, its stdout (the product's log) to a file as in
 * production, and resolves once `/` answers 200. The child is registered so it dies with the
 * bench; stop() sends SIGTERM (a profiled product writes its profile as it exits).
 */
export async function spawnBenchServer(spec: BenchServerSpec, logDir: string): Promise<BenchServer> {
  const port = await freePort();
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `${spec.name.replace(/[^a-z0-9-]+/gi, '_')}-${port}.log`);
  const logFd = openSync(logFile, 'w');
  const started = performance.now();
  const server = spawnEntry(spec.entry, {
    env: { ...spec.env, PORT: String(port), HOST: LOOPBACK },
    execArgv: spec.execArgv,
    stdio: ['ignore', logFd, 'pipe'],
  });
  const { child } = server;
  closeSync(logFd);
  track(child);
  let stderrTail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    stderrTail = (stderrTail + text).slice(-STDERR_TAIL);
  });
  const pid = child.pid;
  const origin = `http://${LOOPBACK}:${port}`;

  async function stop(): Promise<void> {
    await server.stop('SIGTERM', STOP_DEADLINE_MS);
    rmSync(logFile, { force: true });
  }

  try {
    if (pid === undefined) throw new Error(`could not spawn ${spec.entry}`);
    await firstOk(origin, child, () => stderrTail);
    const readyMs = performance.now() - started;
    return { name: spec.name, pid, origin, readyMs, peakRssBytes: () => peakRssBytes(pid), cpuTimeMicros: () => cpuTimeMicros(pid), stop };
  } catch (error) {
    await stop();
    throw new Error(`${spec.name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
