import { readdirSync } from 'node:fs';
import { spawnBenchServer, type BenchServerSpec } from './spawn-bench-server.ts';

export interface ColdStart {
  readonly medianMs: number;
  readonly samplesMs: readonly number[];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? Number.NaN;
  const lower = sorted[middle - 1] ?? upper;
  return sorted.length % 2 === 0 ? (lower + upper) / 2 : upper;
}

/**
 * Whether a folder Node keeps a compile cache in holds any cache yet: Node writes one file per
 * module, in a subfolder per Node release, flags and user.
 */
function holdsCompileCache(dir: string): boolean {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true }).some((entry) => entry.isFile());
  } catch {
    return false;
  }
}

/**
 * A server started with `NODE_COMPILE_CACHE` must have written its cache by the time its
 * unmeasured start ended; otherwise every measured start would compile from scratch and the
 * ratio would compare a cached product with an uncached baseline.
 */
function assertCompileCacheWritten(spec: BenchServerSpec): void {
  const dir = spec.env.NODE_COMPILE_CACHE;
  if (dir !== undefined && !holdsCompileCache(dir)) {
    throw new Error(`${spec.name}: no compile cache in ${dir} after a start and a stop; its cold starts would compile from scratch`);
  }
}

/**
 * Spawn to first 200 on `/`, `times` times per server, the servers taking turns (A B A B) so a
 * change in the machine's load hits both; the median resists a slow outlier. Each server starts
 * once unmeasured first: that start reads its files from disk into the page cache and fills a
 * compile cache it may have, which every start after it finds (checked).
 */
export async function measureColdStarts(specs: readonly BenchServerSpec[], times: number, logDir: string): Promise<ColdStart[]> {
  if (times > 0) {
    for (const spec of specs) {
      const server = await spawnBenchServer(spec, logDir);
      await server.stop();
      assertCompileCacheWritten(spec);
    }
  }
  const samples = specs.map((): number[] => []);
  for (let i = 0; i < times; i += 1) {
    for (const [index, spec] of specs.entries()) {
      const server = await spawnBenchServer(spec, logDir);
      samples[index]?.push(server.readyMs);
      await server.stop();
    }
  }
  return samples.map((samplesMs) => ({ medianMs: median(samplesMs), samplesMs }));
}
