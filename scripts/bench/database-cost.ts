/**
 * What the example app's database costs per answer (docs/app-benchmark.md#the-database): the
 * built server's CPU time per answer and its latency for the guest book's list page and its
 * JSON route, each reading 20 entries, on SQLite (a file), on PostgreSQL (a local server the
 * test harness starts) and, with `--in-memory <main.js>`, on a build whose store keeps the
 * entries in memory (the JSON store this one replaced).
 *
 *   node scripts/bench/database-cost.ts [--seconds 8] [--connections 20] [--in-memory path/to/main.js]
 */
import { createInterface } from 'node:readline';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { spawnEntry } from '../lib/spawn-entry.ts';
import { startPostgres } from '../../test/support/postgres-server.ts';
import { runLoad } from './load.ts';
import { cpuTimeMicros } from './process-cpu.ts';

const MAIN = join(import.meta.dirname, '..', '..', 'dist', 'server', 'main.js');
const ROWS = 20;

interface Figure {
  readonly store: string;
  readonly path: string;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly cpuMicrosPerAnswer: number;
  readonly errors: number;
}

async function measure(store: string, entry: string, env: Record<string, string>, seconds: number, connections: number): Promise<Figure[]> {
  const running = spawnEntry(entry, { env: { PORT: '0', HOST: '127.0.0.1', OVERLOAD_GUARD: 'off', SHUTDOWN_DELAY_MS: '0', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const stdout = running.child.stdout;
  if (stdout === null) throw new Error('expected piped stdout');
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: stdout });
    lines.on('line', (line) => {
      const parsed = JSON.parse(line) as { msg?: string; port?: number };
      if (parsed.msg === 'listening' && parsed.port !== undefined) resolve(parsed.port);
    });
    running.exited.then((exit) => reject(new Error(`${store}: the server exited (${JSON.stringify(exit)})`)));
  });
  const base = `http://127.0.0.1:${port}`;
  for (let index = 0; index < ROWS; index++) {
    const res = await fetch(`${base}/guestbook`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' },
      body: new URLSearchParams({ name: `Visitor ${index}`, message: `Entry number ${index}, a sentence of ordinary length.` }),
    });
    if (res.status !== 303) throw new Error(`${store}: seeding answered ${res.status}`);
  }
  const figures: Figure[] = [];
  for (const path of ['/api/entries', '/guestbook']) {
    const url = `${base}${path}`;
    await runLoad({ url, connections, durationSeconds: 2, expectedStatus: 200 });
    const before = cpuTimeMicros(running.child.pid ?? 0) ?? 0;
    const result = await runLoad({ url, connections, durationSeconds: seconds, expectedStatus: 200 });
    const after = cpuTimeMicros(running.child.pid ?? 0) ?? 0;
    figures.push({
      store,
      path,
      requestsPerSecond: Math.round(result.requestsPerSecond),
      p50Ms: result.p50Ms,
      p99Ms: result.p99Ms,
      cpuMicrosPerAnswer: Math.round((after - before) / Math.max(1, result.responses)),
      errors: result.errors,
    });
  }
  await running.stop('SIGTERM');
  return figures;
}

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' }, connections: { type: 'string', default: '20' }, 'in-memory': { type: 'string' } } });
const seconds = Number(values.seconds);
const connections = Number(values.connections);
// A log line is JSON on stdout at info; listening is info, so the level stays info here.
const figures: Figure[] = [];
const folder = mkdtempSync(join(tmpdir(), 'database-cost-'));
try {
  if (values['in-memory'] !== undefined) figures.push(...(await measure('in memory', values['in-memory'], { LOG_LEVEL: 'info' }, seconds, connections)));
  figures.push(...(await measure('SQLite', MAIN, { LOG_LEVEL: 'info', GUESTBOOK_DATABASE: join(folder, 'guestbook.sqlite') }, seconds, connections)));
  const postgres = await startPostgres();
  try {
    figures.push(...(await measure('PostgreSQL', MAIN, { LOG_LEVEL: 'info', DATABASE_URL: postgres.url }, seconds, connections)));
  } finally {
    await postgres.stop();
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
console.log('| store | path | req/s | p50 ms | p99 ms | CPU µs per answer | errors |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
for (const figure of figures) {
  console.log(`| ${figure.store} | ${figure.path} | ${figure.requestsPerSecond} | ${figure.p50Ms} | ${figure.p99Ms} | ${figure.cpuMicrosPerAnswer} | ${figure.errors} |`);
}
