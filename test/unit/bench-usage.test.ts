import { describe, expect, test } from 'vitest';
import { parseBenchOptions, USAGE } from '../../scripts/bench/bench-options.ts';

/** `npm run bench -- --help` states each variable's default; the parser must use the same one. */
describe('the bench help text', () => {
  const defaults = parseBenchOptions([], {});
  const stated = (variable: string): number => {
    const match = new RegExp(`${variable}=(\\d+)`).exec(USAGE);
    if (match === null) throw new Error(`the help text does not state ${variable}`);
    return Number(match[1]);
  };

  test.each([
    ['BENCH_DURATION', defaults.durationSeconds],
    ['BENCH_WARMUP', defaults.warmupSeconds],
    ['BENCH_ROUNDS', defaults.rounds],
    ['BENCH_COLD_STARTS', defaults.coldStarts],
    ['BENCH_LIGHTHOUSE_RUNS', defaults.lighthouseRuns],
    ['BENCH_MANY_DEFERRED_RUNS', defaults.manyDeferredRuns],
    ['BENCH_OVERLOAD_SECONDS', defaults.overloadSeconds],
  ])('states the default the parser uses for %s', (variable, parsed) => {
    expect(stated(variable)).toBe(parsed);
  });
});
