import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { cpuTimeMicros } from './bench/process-cpu.ts';
import { bundleNodeEntry } from './build-server.ts';
import { BIG_PAGE_END, BIG_PAGE_PATH, BIG_PAGE_WITH_DATA_PATH } from './compression-memory/big-page-markers.ts';
import { settingName, type EncoderSetting } from './compression-memory/encoder-settings.ts';
import { startMeasuredServer } from './compression-memory/measured-server.ts';
import { getPage, type PageEncoding } from './compression-memory/page-client.ts';
import { procMemoryBytes } from './compression-memory/proc-memory.ts';

/**
 * How much memory compressed pages hold: the real app (whatever server/render/compression.ts
 * does now) answering bursts of `--concurrency` (40) requests for a 1 MB page at once (a
 * listing preceded by its data, as a hydrating page is sent), on loopback, per encoding and
 * with glibc's `MALLOC_ARENA_MAX=1`; then a sweep of encoder settings on the bytes of three
 * pages, for the memory, compression ratio and CPU behind the choice.
 *
 *   npx node scripts/measure-compression-memory.ts [--rounds 3] [--concurrency 40] [--no-app] [--no-sweep]
 *
 * Every server runs in its own process, so its peak RSS (the kernel's high-water mark) is its
 * own. Bounded: each request 60 s, the whole run 15 minutes.
 */
const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '40' },
    'tail-ms': { type: 'string', default: '300' },
    'no-app': { type: 'boolean', default: false },
    'no-sweep': { type: 'boolean', default: false },
  },
});
const ROUNDS = Number(args.rounds);
const CONCURRENCY = Number(args.concurrency);
const TAIL_MS = Number(args['tail-ms']);
const REQUEST_TIMEOUT_MS = 60_000;
const RUN_DEADLINE_MS = 15 * 60_000;

const ROOT = join(import.meta.dirname, '..');
const MiB = 1_048_576;
const mib = (bytes: number | undefined) => (bytes === undefined ? '?' : (bytes / MiB).toFixed(0));

setTimeout(() => {
  process.stderr.write(`measure-compression-memory: over ${RUN_DEADLINE_MS / 60_000} minutes, stopped\n`);
  process.exit(1);
}, RUN_DEADLINE_MS).unref();

interface AppRun {
  readonly name: string;
  readonly encoding: PageEncoding;
  readonly env: Readonly<Record<string, string>>;
}

const APP_RUNS: readonly AppRun[] = [
  { name: 'identity', encoding: 'identity', env: {} },
  { name: 'br', encoding: 'br', env: {} },
  { name: 'br, MALLOC_ARENA_MAX=1', encoding: 'br', env: { MALLOC_ARENA_MAX: '1' } },
  // A fixed threshold: glibc then serves every block of 128 KiB or more with its own mmap and
  // gives it back on free, instead of raising the threshold and reusing its heaps.
  { name: 'br, MALLOC_MMAP_THRESHOLD_=131072', encoding: 'br', env: { MALLOC_MMAP_THRESHOLD_: '131072' } },
  { name: 'gzip', encoding: 'gzip', env: {} },
];

interface AppResult {
  readonly name: string;
  readonly idleRss: number | undefined;
  readonly peakRss: number | undefined;
  readonly peakHeap: number;
  readonly peakExternal: number;
  readonly settledRss: number | undefined;
  readonly settledHeap: number;
  readonly settledHeapTotal: number;
  readonly settledExternal: number;
  readonly cpuMicrosPerPage: number;
  readonly wireBytes: number;
  readonly htmlBytes: number;
}

async function measureApp(entry: string, run: AppRun): Promise<AppResult> {
  const server = await startMeasuredServer(entry, TAIL_MS, run.env);
  try {
    const url = `${server.origin}${BIG_PAGE_WITH_DATA_PATH}`;
    // Warm up: the code is compiled and the page's catalogue made once before counting.
    const warm = await getPage(url, run.encoding, REQUEST_TIMEOUT_MS);
    const idleRss = procMemoryBytes(server.pid, 'VmRSS');
    const cpuBefore = cpuTimeMicros(server.pid) ?? 0;
    let wireBytes = 0;
    let htmlBytes = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const answers = await Promise.all(Array.from({ length: CONCURRENCY }, () => getPage(url, run.encoding, REQUEST_TIMEOUT_MS)));
      for (const answer of answers) {
        const expected = run.encoding === 'identity' ? undefined : run.encoding;
        if (answer.status !== 200 || answer.encoding !== expected || !answer.html.includes(BIG_PAGE_END) || !answer.html.endsWith('</html>')) {
          throw new Error(`${run.name}: a page came back ${answer.status}, ${answer.encoding ?? 'identity'}, ${answer.html.length} characters, incomplete`);
        }
        wireBytes += answer.wireBytes;
        htmlBytes += Buffer.byteLength(answer.html);
      }
    }
    const cpuMicros = (cpuTimeMicros(server.pid) ?? 0) - cpuBefore;
    const peakRss = procMemoryBytes(server.pid, 'VmHWM');
    const peaks = await server.ask('memory');
    const settled = await server.ask('settle');
    const pages = ROUNDS * CONCURRENCY;
    if (warm.status !== 200) throw new Error(`${run.name}: warm-up answered ${warm.status}`);
    return {
      name: run.name,
      idleRss,
      peakRss,
      peakHeap: peaks.peakHeapUsed,
      peakExternal: peaks.peakExternal,
      settledRss: procMemoryBytes(server.pid, 'VmRSS'),
      settledHeap: settled.heapUsed,
      settledHeapTotal: settled.heapTotal,
      settledExternal: settled.external,
      cpuMicrosPerPage: cpuMicros / pages,
      wireBytes: wireBytes / pages,
      htmlBytes: htmlBytes / pages,
    };
  } finally {
    await server.stop();
  }
}

const SWEEP: readonly EncoderSetting[] = [
  // Node's defaults.
  { kind: 'br', quality: 11, lgwin: 22 },
  { kind: 'br', quality: 4, lgwin: 22 },
  { kind: 'br', quality: 4, lgwin: 20 },
  { kind: 'br', quality: 4, lgwin: 18 },
  { kind: 'br', quality: 4, lgwin: 17 },
  { kind: 'br', quality: 4, lgwin: 16 },
  { kind: 'br', quality: 5, lgwin: 18 },
  { kind: 'br', quality: 5, lgwin: 16 },
  { kind: 'gzip', level: 6, memLevel: 8, windowBits: 15 },
];

const SWEEP_PAGES: readonly { readonly name: string; readonly path: string }[] = [
  { name: '1 MB listing', path: BIG_PAGE_PATH },
  { name: '1 MB listing after its data', path: BIG_PAGE_WITH_DATA_PATH },
  { name: '200 kB listing after its data', path: `${BIG_PAGE_WITH_DATA_PATH}?rows=420` },
];

/** The identity bytes of each sweep page, from the app itself. */
async function sweepPages(entry: string): Promise<readonly Buffer[]> {
  const server = await startMeasuredServer(entry, 0, {});
  try {
    const pages: Buffer[] = [];
    for (const page of SWEEP_PAGES) {
      const answer = await getPage(`${server.origin}${page.path}`, 'identity', REQUEST_TIMEOUT_MS);
      if (answer.status !== 200 || !answer.html.includes(BIG_PAGE_END)) throw new Error(`${page.path} answered ${answer.status}, incomplete`);
      pages.push(Buffer.from(answer.html));
    }
    return pages;
  } finally {
    await server.stop();
  }
}

interface SweepResult {
  readonly baselineRss: number;
  readonly peakRss: number;
  readonly cpuMicrosPerPage: number;
  readonly bytesPerPage: number;
  readonly wallMs: number;
}

function isSweepResult(value: unknown): value is SweepResult {
  return typeof value === 'object' && value !== null && 'peakRss' in value && 'bytesPerPage' in value && 'cpuMicrosPerPage' in value;
}

const run = promisify(execFile);

async function sweepOne(setting: EncoderSetting, pageFile: string, split: number): Promise<SweepResult> {
  const script = join(import.meta.dirname, 'compression-memory', 'encoder-sweep.ts');
  const { stdout } = await run(process.execPath, [script, JSON.stringify(setting), pageFile, String(split), String(CONCURRENCY)], { timeout: 5 * 60_000 });
  const result: unknown = JSON.parse(stdout);
  if (!isSweepResult(result)) throw new Error(`sweep of ${settingName(setting)}: unexpected output ${stdout}`);
  return result;
}

const entry = join(ROOT, 'dist', 'compression-memory', 'measure-server.js');
await bundleNodeEntry(join(import.meta.dirname, 'compression-memory', 'measure-server.tsx'), entry, 'production');

const lines: string[] = [
  `${CONCURRENCY} concurrent requests for a 1 MB page, ${ROUNDS} rounds, tail boundary after ${TAIL_MS} ms (MiB; CPU per page, all threads)`,
  '',
  '| run | idle RSS | peak RSS | peak heap | peak external | RSS after | heap after (V8 holds) | external after | CPU ms/page | wire kB/page |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
];
for (const appRun of args['no-app'] ? [] : APP_RUNS) {
  const result = await measureApp(entry, appRun);
  lines.push(
    `| ${result.name} | ${mib(result.idleRss)} | ${mib(result.peakRss)} | ${mib(result.peakHeap)} | ${mib(result.peakExternal)} | ${mib(result.settledRss)} | ${mib(result.settledHeap)} (${mib(result.settledHeapTotal)}) | ${mib(result.settledExternal)} | ${(result.cpuMicrosPerPage / 1000).toFixed(1)} | ${(result.wireBytes / 1000).toFixed(0)} |`,
  );
  process.stderr.write(`${lines.at(-1)}\n`);
}

if (!args['no-sweep']) {
  const dir = mkdtempSync(join(tmpdir(), 'compression-memory-'));
  try {
    const pages = await sweepPages(entry);
    for (const [index, bytes] of pages.entries()) {
      const pageFile = join(dir, `page-${index}.html`);
      writeFileSync(pageFile, bytes);
      // The tail boundary's segment, which React sends after the shell.
      const split = bytes.indexOf('<div hidden id="S:');
      if (split < 0) throw new Error('no boundary segment in the page');
      lines.push(
        '',
        `encoders alone, ${CONCURRENCY} at once: ${SWEEP_PAGES[index]?.name ?? ''} (${(bytes.length / 1000).toFixed(0)} kB; shell, flush, then the tail; RSS in MiB above the process's before)`,
        '',
        '| setting | peak RSS | per stream | CPU ms/page | kB/page | ratio |',
        '| --- | ---: | ---: | ---: | ---: | ---: |',
      );
      for (const setting of SWEEP) {
        const result = await sweepOne(setting, pageFile, split);
        const grown = result.peakRss - result.baselineRss;
        lines.push(
          `| ${settingName(setting)} | ${mib(grown)} | ${(grown / CONCURRENCY / MiB).toFixed(2)} | ${(result.cpuMicrosPerPage / 1000).toFixed(1)} | ${(result.bytesPerPage / 1000).toFixed(1)} | ${(bytes.length / result.bytesPerPage).toFixed(2)} |`,
        );
        process.stderr.write(`${lines.at(-1)}\n`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

process.stdout.write(`${lines.join('\n')}\n`);
