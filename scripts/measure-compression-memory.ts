import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bundleNodeEntry } from './build-server.ts';
import { APP_RUNS, measureApp, type AppResult, type Burst } from './compression-memory/app-runs.ts';
import { settingName } from './compression-memory/encoder-settings.ts';
import { median, mibMedian, mibSpread } from './compression-memory/summary.ts';
import { sweepOne, SWEEP_PAGES, sweepPageBytes, type SweepResult } from './compression-memory/sweep-runs.ts';

/**
 * How much memory compressed pages hold (docs/deployment.md#compression-memory).
 *
 * 1. The real app answering bursts of `--concurrency` (40) requests at once for a 1 MB page (a
 *    listing after its data, as a hydrating page is sent), on loopback: uncompressed, brotli as
 *    server/http/compression.ts sets it and with Node's default window (lgwin 22), each also
 *    under glibc's `MALLOC_ARENA_MAX=1` and with a fixed mmap threshold, and gzip.
 * 2. A sweep of encoder settings alone on the bytes of four pages: memory, ratio and CPU.
 *
 *   npx node scripts/measure-compression-memory.ts [--repeat 3] [--rounds 3] [--concurrency 40] [--no-app] [--no-sweep]
 *
 * Each measurement runs in a process of its own, so its peak RSS (the kernel's high-water mark)
 * is its own, `--repeat` times, in turns, so a busy machine weighs on every run alike; tables give
 * medians, and ranges for RSS. Bounded: each request 60 s, the whole run 40 minutes.
 */
const { values: args } = parseArgs({
  options: {
    repeat: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '40' },
    'tail-ms': { type: 'string', default: '300' },
    'no-app': { type: 'boolean', default: false },
    'no-sweep': { type: 'boolean', default: false },
  },
});
const REPEAT = Number(args.repeat);
const BURST: Burst = { concurrency: Number(args.concurrency), rounds: Number(args.rounds), tailMs: Number(args['tail-ms']), timeoutMs: 60_000 };
const RUN_DEADLINE_MS = 40 * 60_000;

setTimeout(() => {
  process.stderr.write(`measure-compression-memory: over ${RUN_DEADLINE_MS / 60_000} minutes, stopped\n`);
  process.exit(1);
}, RUN_DEADLINE_MS).unref();

const entry = join(import.meta.dirname, '..', 'dist', 'compression-memory', 'measure-server.js');
await bundleNodeEntry(join(import.meta.dirname, 'compression-memory', 'measure-server.tsx'), entry, 'production');

const lines: string[] = [];
function print(line: string): void {
  lines.push(line);
  process.stderr.write(`${line}\n`);
}

async function appTable(): Promise<void> {
  const results = APP_RUNS.map((): AppResult[] => []);
  for (let repeat = 0; repeat < REPEAT; repeat += 1) {
    for (const [index, run] of APP_RUNS.entries()) results[index]?.push(await measureApp(entry, run, BURST));
  }
  print(`The app, ${BURST.concurrency} requests at once for a 1 MB page after its data, ${BURST.rounds} bursts, ${REPEAT} runs (MiB; CPU of all threads)`);
  print('');
  print('| run | window | peak RSS | peak RSS outside V8 heap | peak heap used | RSS after | heap used after | CPU ms/page | kB/page |');
  print('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [index, run] of APP_RUNS.entries()) {
    const runs = results[index] ?? [];
    const of = (pick: (result: AppResult) => number) => runs.map(pick);
    const windows = [...new Set(runs.flatMap((result) => result.windows))].join(', ') || '-';
    print(
      `| ${run.name} | ${windows} | ${mibSpread(of((r) => r.peakRss))} | ${mibSpread(of((r) => r.peakOutsideHeap))} | ${mibMedian(of((r) => r.peakHeapUsed))} | ${mibSpread(of((r) => r.settledRss))} | ${mibMedian(of((r) => r.settledHeapUsed))} | ${(median(of((r) => r.cpuMicrosPerPage)) / 1000).toFixed(1)} | ${(median(of((r) => r.wireBytesPerPage)) / 1000).toFixed(0)} |`,
    );
  }
}

async function sweepTables(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'compression-memory-'));
  try {
    const pages = await sweepPageBytes(entry, BURST.timeoutMs);
    for (const [index, bytes] of pages.entries()) {
      const page = SWEEP_PAGES[index];
      if (page === undefined) continue;
      const pageFile = join(dir, `page-${index}.html`);
      writeFileSync(pageFile, bytes);
      // The tail boundary's segment, which React sends after the shell.
      const split = bytes.indexOf('<div hidden id="S:');
      if (split < 0) throw new Error('no boundary segment in the page');
      const results = page.settings.map((): SweepResult[] => []);
      for (let repeat = 0; repeat < REPEAT; repeat += 1) {
        for (const [at, setting] of page.settings.entries()) results[at]?.push(await sweepOne(setting, pageFile, split, BURST.concurrency));
      }
      print('');
      print(`Encoders alone, ${BURST.concurrency} at once: ${page.name}, ${(bytes.length / 1000).toFixed(0)} kB (RSS they added, MiB; ${REPEAT} runs)`);
      print('');
      print('| setting | peak RSS | per stream | CPU ms/page | kB/page | ratio |');
      print('| --- | ---: | ---: | ---: | ---: | ---: |');
      for (const [at, setting] of page.settings.entries()) {
        const runs = results[at] ?? [];
        const grown = runs.map((result) => result.peakRss - result.baselineRss);
        const compressed = median(runs.map((result) => result.bytesPerPage));
        print(
          `| ${settingName(setting)} | ${mibSpread(grown)} | ${(median(grown) / BURST.concurrency / 1_048_576).toFixed(2)} | ${(median(runs.map((result) => result.cpuMicrosPerPage)) / 1000).toFixed(1)} | ${(compressed / 1000).toFixed(1)} | ${(bytes.length / compressed).toFixed(2)} |`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (!args['no-app']) await appTable();
if (!args['no-sweep']) await sweepTables();
process.stdout.write(`${lines.join('\n')}\n`);
