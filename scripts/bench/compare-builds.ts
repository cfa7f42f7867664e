import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverSpecs } from './bench-servers.ts';
import { buildBench } from './build-bench.ts';
import { progress, readOptions } from './command-line.ts';
import { COMPARE_USAGE, parseCompareOptions, type CompareOptions } from './compare-options.ts';
import { formatRounds, type CompareRound, type SideRun } from './compare-summary.ts';
import { HEAP_RECORDER_ARGS, heapReportFile, readHeapReport } from './heap-reading.ts';
import type { HeapReport } from './heap-totals.ts';
import { pinToCpus, splitCpus } from './cpu-pinning.ts';
import { runLoad, type LoadResult } from './load.ts';
import { buildRevision } from './revision-build.ts';
import { spawnBenchServer, type BenchServer, type BenchServerSpec } from './spawn-bench-server.ts';

const LOG_DIR = join(tmpdir(), 'bench-compare-logs');

/** A server of a round, and the file its heap recorder writes to (heap-recorder.ts). */
interface RoundServer {
  readonly server: BenchServer;
  readonly heapFile: string;
}

/** What a side's counters said at one moment. */
interface Reading {
  readonly cpuMicros: number;
  readonly heap: HeapReport;
}

async function readSide({ server, heapFile }: RoundServer): Promise<Reading> {
  const heap = await readHeapReport(server.pid, heapFile);
  return { cpuMicros: server.cpuTimeMicros() ?? Number.NaN, heap };
}

function sideRun(before: Reading, after: Reading, { responses, errors }: LoadResult): SideRun {
  return {
    responses,
    errors,
    cpuMicros: after.cpuMicros - before.cpuMicros,
    allocatedBytes: after.heap.allocatedBytes - before.heap.allocatedBytes,
    pauseMicros: after.heap.pauseMicros - before.heap.pauseMicros,
  };
}

/** Both servers under load at once, each from its own autocannon in this process. */
async function loadBoth([first, second]: readonly [RoundServer, RoundServer], options: CompareOptions, seconds: number): Promise<[SideRun, SideRun]> {
  const load = ({ server }: RoundServer) =>
    runLoad({ url: `${server.origin}${options.path}`, connections: options.connections, durationSeconds: seconds, expectedStatus: options.status });
  const before = await Promise.all([readSide(first), readSide(second)]);
  const loads = await Promise.all([load(first), load(second)]);
  const after = await Promise.all([readSide(first), readSide(second)]);
  return [sideRun(before[0], after[0], loads[0]), sideRun(before[1], after[1], loads[1])];
}

async function measureRound(
  specs: { readonly tree: BenchServerSpec; readonly revision: BenchServerSpec },
  serverCpus: readonly number[],
  options: CompareOptions,
  round: number,
): Promise<CompareRound> {
  // Which one starts first alternates, so neither always gets the other's start-up on its core.
  const order = round % 2 === 0 ? ([specs.tree, specs.revision] as const) : ([specs.revision, specs.tree] as const);
  const started: RoundServer[] = [];
  try {
    for (const spec of order) {
      const heapFile = heapReportFile(LOG_DIR, spec.name);
      const server = await spawnBenchServer({ ...spec, env: { ...spec.env, BENCH_HEAP_FILE: heapFile }, execArgv: [...(spec.execArgv ?? []), ...HEAP_RECORDER_ARGS] }, LOG_DIR);
      started.push({ server, heapFile });
    }
    for (const { server } of started) pinToCpus(server.pid, serverCpus);
    const pair = started as unknown as readonly [RoundServer, RoundServer];
    if (options.warmupSeconds > 0) await loadBoth(pair, options, options.warmupSeconds);
    const [firstRun, secondRun] = await loadBoth(pair, options, options.durationSeconds);
    return order[0] === specs.tree ? { tree: firstRun, revision: secondRun } : { tree: secondRun, revision: firstRun };
  } finally {
    await Promise.all(started.map(({ server }) => server.stop()));
  }
}

/**
 * `npm run bench:compare`: the working tree's fixture build against another revision's, for a
 * change too small for `npm run bench` to resolve. Requests per second on a shared host move by
 * more than such a change between runs; CPU time per answer, with both servers on one core under
 * the same load in the same seconds, does not: whatever else the host does falls on both alike.
 * Each round starts a fresh pair, warms both up together, then measures both together. Each
 * server also counts its heap allocations and collections (heap-recorder.ts): a change that
 * moves CPU by less than the noise often shows there, as bytes per answer.
 */
async function main(): Promise<void> {
  const options = readOptions(parseCompareOptions, COMPARE_USAGE);
  const cpus = splitCpus();
  if ('unavailable' in cpus) {
    process.stderr.write(`bench:compare cannot run here: ${cpus.unavailable}\n`);
    process.exit(2);
  }
  const revision = buildRevision(options.against, progress);
  try {
    progress("building the working tree's bench");
    const tree = serverSpecs(await buildBench(), undefined)['product-fixture'];
    // Once both are built (on every CPU): the load generator, and the servers it spawns until
    // they are pinned, keep off the servers' core.
    pinToCpus(process.pid, cpus.load);
    const label = revision.commit.slice(0, 7);
    const specs = { tree: { ...tree, name: 'tree' }, revision: { ...tree, name: label, entry: revision.fixtureEntry } };
    progress(
      `${options.rounds} rounds on ${options.path}: ${options.connections} connections each, ${options.warmupSeconds} s warm-up, ${options.durationSeconds} s measured; servers on CPU ${cpus.servers.join(',')}, load on ${cpus.load.join(',')}`,
    );
    const rounds: CompareRound[] = [];
    for (let round = 0; round < options.rounds; round += 1) {
      rounds.push(await measureRound(specs, cpus.servers, options, round));
      progress(`round ${round + 1} of ${options.rounds} done`);
    }
    process.stdout.write(`${formatRounds(rounds, { tree: 'tree', revision: label })}\n`);
  } finally {
    revision.remove();
  }
}

await main();
