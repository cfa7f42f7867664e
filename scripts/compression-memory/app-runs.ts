import { cpuTimeMicros } from '../bench/process-cpu.ts';
import { BIG_PAGE_END, BIG_PAGE_WITH_DATA_PATH } from './big-page-markers.ts';
import { startMeasuredServer } from './measured-server.ts';
import { getPage, type PageEncoding } from './page-client.ts';
import { procMemoryBytes } from './proc-memory.ts';

/** One way of serving the measured page: an encoding, and what the process runs with. */
export interface AppRun {
  readonly name: string;
  readonly encoding: PageEncoding;
  /** A brotli window instead of the app's own (server/http/compression.ts). */
  readonly lgwin?: number;
  readonly env?: Readonly<Record<string, string>>;
}

const ONE_ARENA = { MALLOC_ARENA_MAX: '1' };
// A fixed threshold: glibc then serves every block of 128 KiB or more with its own mmap and
// gives it back on free, instead of raising the threshold as such blocks are freed and keeping
// later ones in its heaps.
const FIXED_MMAP = { MALLOC_MMAP_THRESHOLD_: '131072' };

/**
 * Brotli as the app sets it and as it was before (Node's default window, no size hint), under
 * each malloc setting.
 */
export const APP_RUNS: readonly AppRun[] = [
  { name: 'identity', encoding: 'identity' },
  { name: 'br, lgwin 22, no hint', encoding: 'br', lgwin: 22 },
  { name: 'br', encoding: 'br' },
  { name: 'br, lgwin 22, no hint, MALLOC_ARENA_MAX=1', encoding: 'br', lgwin: 22, env: ONE_ARENA },
  { name: 'br, MALLOC_ARENA_MAX=1', encoding: 'br', env: ONE_ARENA },
  { name: 'br, lgwin 22, no hint, MALLOC_MMAP_THRESHOLD_=131072', encoding: 'br', lgwin: 22, env: FIXED_MMAP },
  { name: 'br, MALLOC_MMAP_THRESHOLD_=131072', encoding: 'br', env: FIXED_MMAP },
  { name: 'gzip', encoding: 'gzip' },
];

export interface AppResult {
  /** The kernel's high-water mark of the server's RSS. */
  readonly peakRss: number;
  /** RSS less V8's heap, at its sampled peak: native memory (zlib's among it) and code. */
  readonly peakOutsideHeap: number;
  readonly peakHeapUsed: number;
  /** Once every answer is out and garbage is collected. */
  readonly settledRss: number;
  readonly settledHeapUsed: number;
  /** CPU time of all the server's threads, per page. */
  readonly cpuMicrosPerPage: number;
  readonly wireBytesPerPage: number;
  /** The windows brotli answers declared (lgwin). */
  readonly windows: readonly number[];
}

export interface Burst {
  readonly concurrency: number;
  readonly rounds: number;
  readonly tailMs: number;
  readonly timeoutMs: number;
}

/**
 * Starts the measured server for `run`, warms it with one page, then sends `burst.rounds`
 * bursts of `burst.concurrency` requests at once for the 1 MB page after its data, each read
 * whole and decoded, and reads the server's memory and CPU.
 */
export async function measureApp(entry: string, run: AppRun, burst: Burst): Promise<AppResult> {
  const server = await startMeasuredServer(entry, { tailMs: burst.tailMs, lgwin: run.lgwin, env: run.env ?? {} });
  try {
    const url = `${server.origin}${BIG_PAGE_WITH_DATA_PATH}`;
    const warm = await getPage(url, run.encoding, burst.timeoutMs);
    if (warm.status !== 200) throw new Error(`${run.name}: warm-up answered ${warm.status}`);
    const cpuBefore = cpuTimeMicros(server.pid) ?? 0;
    let wireBytes = 0;
    const windows = new Set<number>();
    for (let round = 0; round < burst.rounds; round += 1) {
      const answers = await Promise.all(Array.from({ length: burst.concurrency }, () => getPage(url, run.encoding, burst.timeoutMs)));
      for (const answer of answers) {
        const expected = run.encoding === 'identity' ? undefined : run.encoding;
        if (answer.status !== 200 || answer.encoding !== expected || !answer.html.includes(BIG_PAGE_END) || !answer.html.endsWith('</html>')) {
          throw new Error(`${run.name}: a page came back ${answer.status}, ${answer.encoding ?? 'identity'}, ${answer.html.length} characters, incomplete`);
        }
        wireBytes += answer.wireBytes;
        if (answer.brotliWindow !== undefined) windows.add(answer.brotliWindow);
      }
    }
    const cpuMicros = (cpuTimeMicros(server.pid) ?? 0) - cpuBefore;
    const peakRss = procMemoryBytes(server.pid, 'VmHWM') ?? Number.NaN;
    const peaks = await server.ask('memory');
    const settled = await server.ask('settle');
    const pages = burst.rounds * burst.concurrency;
    return {
      peakRss,
      peakOutsideHeap: peaks.peakOutsideHeap,
      peakHeapUsed: peaks.peakHeapUsed,
      settledRss: procMemoryBytes(server.pid, 'VmRSS') ?? Number.NaN,
      settledHeapUsed: settled.heapUsed,
      cpuMicrosPerPage: cpuMicros / pages,
      wireBytesPerPage: wireBytes / pages,
      windows: [...windows],
    };
  } finally {
    await server.stop();
  }
}
