import { parseArgs } from 'node:util';
import { numericFlags } from './command-line.ts';

/** How long and how often: parsed once from flags, else `BENCH_*` variables, else defaults. */
export interface BenchOptions {
  /** Seconds of each measured run. */
  readonly durationSeconds: number;
  /** Seconds of load each server gets before its first measured run of a scenario. */
  readonly warmupSeconds: number;
  /** A B A B: every server of a scenario runs this many times, interleaved. */
  readonly rounds: number;
  /** Spawns measured per server for the cold start (median reported). */
  readonly coldStarts: number;
  /** Only these scenarios (ids); all when empty. */
  readonly scenarios: readonly string[];
  /** Writes the table as JSON here. */
  readonly jsonFile: string | undefined;
  /** Runs the product with `--cpu-prof` and writes its profiles here. */
  readonly cpuProfileDir: string | undefined;
  /** Lighthouse runs on `/` of the product (median reported); 0 skips the section. */
  readonly lighthouseRuns: number;
  /** Builds, measures the cold start alone and prints its table: no load, first-load or Lighthouse. */
  readonly coldStartOnly: boolean;
  /** Times of each answer of the many-deferred-values page (median reported); 0 skips the figure. */
  readonly manyDeferredRuns: number;
  /** Builds, measures the many-deferred-values figure alone and prints it. */
  readonly manyDeferredOnly: boolean;
  /** Seconds of each run of the overload figure (1,000 connections on the app-shaped page); 0 skips it. */
  readonly overloadSeconds: number;
  /** Builds, measures the overload figure alone and prints it. */
  readonly overloadOnly: boolean;
}

export const USAGE = `npm run bench -- [--duration S] [--warmup S] [--rounds N] [--cold-starts N]
                    [--scenarios id,id] [--json FILE] [--cpu-prof DIR]
                    [--lighthouse-runs N] [--no-lighthouse] [--cold-start-only]
                    [--many-deferred-runs N] [--many-deferred-only]
                    [--overload-seconds S] [--overload-only]
Defaults: BENCH_DURATION=5, BENCH_WARMUP=2, BENCH_ROUNDS=2, BENCH_COLD_STARTS=15,
BENCH_LIGHTHOUSE_RUNS=3 (--no-lighthouse, or 0, skips the Lighthouse section),
BENCH_MANY_DEFERRED_RUNS=5 (0 skips the many-deferred-values figure),
BENCH_OVERLOAD_SECONDS=10 (0 skips the overload figure).`;

const { number, integer } = numericFlags(USAGE);

export function parseBenchOptions(args: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  const { values } = parseArgs({
    args: [...args],
    options: {
      duration: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      'cold-starts': { type: 'string' },
      scenarios: { type: 'string' },
      json: { type: 'string' },
      'cpu-prof': { type: 'string' },
      'lighthouse-runs': { type: 'string' },
      lighthouse: { type: 'boolean' },
      'cold-start-only': { type: 'boolean' },
      'many-deferred-runs': { type: 'string' },
      'many-deferred-only': { type: 'boolean' },
      'overload-seconds': { type: 'string' },
      'overload-only': { type: 'boolean' },
    },
    allowNegative: true,
    strict: true,
  });
  const lighthouseRuns = integer('--lighthouse-runs', values['lighthouse-runs'] ?? env.BENCH_LIGHTHOUSE_RUNS, 3, 0, 20);
  return {
    durationSeconds: number('--duration', values.duration ?? env.BENCH_DURATION, 5, 1, 600),
    warmupSeconds: number('--warmup', values.warmup ?? env.BENCH_WARMUP, 2, 0, 600),
    rounds: integer('--rounds', values.rounds ?? env.BENCH_ROUNDS, 2, 1, 20),
    coldStarts: integer('--cold-starts', values['cold-starts'] ?? env.BENCH_COLD_STARTS, 15, 0, 50),
    scenarios: (values.scenarios ?? env.BENCH_SCENARIOS ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== ''),
    jsonFile: values.json,
    cpuProfileDir: values['cpu-prof'],
    lighthouseRuns: values.lighthouse === false ? 0 : lighthouseRuns,
    coldStartOnly: values['cold-start-only'] === true,
    manyDeferredRuns: integer('--many-deferred-runs', values['many-deferred-runs'] ?? env.BENCH_MANY_DEFERRED_RUNS, 5, 0, 50),
    manyDeferredOnly: values['many-deferred-only'] === true,
    overloadSeconds: integer('--overload-seconds', values['overload-seconds'] ?? env.BENCH_OVERLOAD_SECONDS, 10, 0, 60),
    overloadOnly: values['overload-only'] === true,
  };
}
