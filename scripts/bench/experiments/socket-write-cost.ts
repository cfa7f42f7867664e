import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'node:http';
import { freePort, LOOPBACK } from '../../lib/loopback.ts';
import { buildBench } from '../build-bench.ts';
import { track } from '../child-registry.ts';
import { runLoad } from '../load.ts';
import { cpuTimeMicros } from '../process-cpu.ts';
import { spawnBenchServer } from '../spawn-bench-server.ts';

/**
 * Why a socket write costs more in a slower server (docs/benchmark.md, "Targets still missed").
 * The same `node:http` 404 (1,408 bytes, one `writev` per answer) is served with a bare head and
 * with the product's own 404 head, each after spinning the CPU for 0, 10 and 20 µs per request,
 * under the bench's load (50 connections). It prints each server's CPU time per answer, that
 * time less the spin, and how long `res.end()` took. Run: node scripts/bench/experiments/socket-write-cost.ts
 */
const SPINS_US = [0, 10, 20];
const ROUNDS = 3;
const SECONDS = 4;
const CONNECTIONS = 50;

/** The product's 404 head as it leaves the server, less what Node adds per answer. */
async function productHead(): Promise<[string, string][]> {
  const build = await buildBench();
  const product = await spawnBenchServer({ name: 'product', entry: build.productEntry, env: { SHUTDOWN_DELAY_MS: '0', LOG_LEVEL: 'info' } }, join(import.meta.dirname, '..', '..', '..', 'dist', 'bench', 'logs-experiments'));
  try {
    return await new Promise((resolve, reject) => {
      request(`${product.origin}/no/such/page`, { headers: { accept: 'text/html' } }, (res) => {
        res.resume();
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i] ?? '';
          if (!/^(date|connection|keep-alive|content-length)$/i.test(name)) pairs.push([name, res.rawHeaders[i + 1] ?? '']);
        }
        resolve(pairs);
      }).on('error', reject).end();
    });
  } finally {
    await product.stop();
  }
}

interface Contender {
  readonly label: string;
  readonly spinUs: number;
  readonly child: ChildProcess;
  readonly origin: string;
  /** What the server reported, every report. */
  readonly endNs: number[];
  /** res.end()'s mean over each measured round. */
  readonly roundEndNs: number[];
  cpuMicros: number;
  answers: number;
}

async function start(label: string, spinUs: number, head: [string, string][] | undefined): Promise<Contender> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(import.meta.dirname, 'socket-write-server.ts')], {
    env: { ...process.env, PORT: String(port), SPIN_US: String(spinUs), ...(head === undefined ? {} : { HEAD_JSON: JSON.stringify(head) }) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  track(child);
  const contender: Contender = { label, spinUs, child, origin: `http://${LOOPBACK}:${port}`, endNs: [], roundEndNs: [], cpuMicros: 0, answers: 0 };
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    for (const match of text.matchAll(/end-ns (\d+)/g)) contender.endNs.push(Number(match[1]));
  });
  return contender;
}

const head = await productHead();
const contenders: Contender[] = [];
for (const spinUs of SPINS_US) {
  contenders.push(await start(`bare head (1 header), spin ${spinUs} µs`, spinUs, undefined));
  contenders.push(await start(`product's 404 head (${head.length} headers), spin ${spinUs} µs`, spinUs, head));
}
try {
  await sleep(300);
  for (const contender of contenders) await runLoad({ url: `${contender.origin}/`, connections: CONNECTIONS, durationSeconds: 2, expectedStatus: 404 });
  for (let round = 0; round < ROUNDS; round++) {
    for (const contender of contenders) {
      const pid = contender.child.pid ?? 0;
      // Reset the server's count of res.end() time (what it reports now is the warm-up's).
      process.kill(pid, 'SIGUSR2');
      await sleep(50);
      const reports = contender.endNs.length;
      const before = cpuTimeMicros(pid) ?? 0;
      const load = await runLoad({ url: `${contender.origin}/`, connections: CONNECTIONS, durationSeconds: SECONDS, expectedStatus: 404 });
      contender.cpuMicros += (cpuTimeMicros(pid) ?? 0) - before;
      contender.answers += load.responses;
      process.kill(pid, 'SIGUSR2');
      await sleep(50);
      const report = contender.endNs[reports];
      if (report === undefined) throw new Error(`${contender.label}: no report of res.end()`);
      contender.roundEndNs.push(report);
    }
  }
  console.log('server                                              CPU µs/answer  less spin  res.end() µs');
  for (const contender of contenders) {
    const perAnswer = contender.cpuMicros / contender.answers;
    const endUs = contender.roundEndNs.reduce((sum, ns) => sum + ns, 0) / contender.roundEndNs.length / 1_000;
    console.log(`${contender.label.padEnd(50)}  ${perAnswer.toFixed(1).padStart(13)}  ${(perAnswer - contender.spinUs).toFixed(1).padStart(9)}  ${endUs.toFixed(1).padStart(12)}`);
  }
} finally {
  for (const contender of contenders) contender.child.kill('SIGTERM');
}
