import { fork } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { bundleNodeEntry } from '../build-server.ts';
import { DESKTOP_CHROME } from '../lib/http-get.ts';

const ROOT = join(import.meta.dirname, '..', '..');

export interface SoakOptions {
  readonly requests: number;
  readonly warmup: number;
  readonly concurrency: number;
  /** Share of requests disconnected mid-stream at a random moment. */
  readonly abortShare: number;
}

export interface Measurement {
  readonly heapUsed: number;
  readonly resources: readonly string[];
  readonly errorLines: number;
  readonly lines: number;
}

export interface SoakResult {
  readonly completed: number;
  readonly aborted: number;
  readonly failed: number;
  readonly warm: Measurement;
  readonly end: Measurement;
  readonly seconds: number;
}

function isMeasurement(value: unknown): value is Measurement {
  return typeof value === 'object' && value !== null && 'heapUsed' in value && 'resources' in value;
}

/** Bundles the soak server (TSX) so plain Node runs it. */
async function bundleSoakServer(): Promise<string> {
  const outfile = join(ROOT, 'dist', 'soak', 'soak-server.js');
  await bundleNodeEntry(join(import.meta.dirname, 'soak-server.tsx'), outfile);
  return outfile;
}

/** One GET of the streaming page; aborted at a random moment when `abortAfterMs` is set. */
function hit(port: number, abortAfterMs: number | undefined): Promise<'completed' | 'aborted' | 'failed'> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/slow', agent: false, headers: { 'User-Agent': DESKTOP_CHROME } }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode === 200 ? 'completed' : 'failed'));
      res.on('error', () => resolve(abortAfterMs === undefined ? 'failed' : 'aborted'));
    });
    req.on('error', () => resolve(abortAfterMs === undefined ? 'failed' : 'aborted'));
    if (abortAfterMs !== undefined) {
      setTimeout(() => {
        req.destroy();
        resolve('aborted');
      }, abortAfterMs);
    }
    req.end();
  });
}

/**
 * docs/rendering.md: a disconnect mid-stream leaves nothing behind. Runs `requests` against the
 * streaming fixture, most cut at random moments, and measures the server's heap after a
 * forced GC at warm-up and at the end, its open handles and its error lines.
 */
export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const entry = await bundleSoakServer();
  const child = fork(entry, [], {
    execArgv: ['--expose-gc'],
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (message: unknown) => {
        if (typeof message === 'object' && message !== null && 'port' in message && typeof message.port === 'number') resolve(message.port);
        else reject(new Error('soak server did not report its port'));
      });
      child.once('exit', (code) => reject(new Error(`soak server exited with ${code}`)));
    });
    const measure = () =>
      new Promise<Measurement>((resolve, reject) => {
        child.once('message', (message: unknown) => (isMeasurement(message) ? resolve(message) : reject(new Error('bad measurement'))));
        child.send('measure');
      });

    const counts = { completed: 0, aborted: 0, failed: 0 };
    async function drive(total: number): Promise<void> {
      let next = 0;
      async function worker(): Promise<void> {
        while (next < total) {
          next += 1;
          // Cut between 0 and 40 ms: before the headers, inside the shell, or waiting on the boundary.
          const abortAfter = Math.random() < options.abortShare ? Math.random() * 40 : undefined;
          counts[await hit(port, abortAfter)] += 1;
        }
      }
      await Promise.all(Array.from({ length: options.concurrency }, worker));
    }

    const started = performance.now();
    await drive(options.warmup);
    const warm = await measure();
    await drive(options.requests);
    const end = await measure();
    return { ...counts, warm, end, seconds: (performance.now() - started) / 1000 };
  } finally {
    child.kill('SIGKILL');
  }
}

/** Handles a clean server may hold: its listener, its IPC channel and its stdio. */
export function unexpectedResources(resources: readonly string[]): string[] {
  const allowed = new Set(['TCPServerWrap', 'PipeWrap', 'TTYWrap', 'FSReqCallback', 'ProcessWrap']);
  return resources.filter((kind) => !allowed.has(kind));
}
