import { describe, expect, test } from 'vitest';
import { COMPARE_USAGE, parseCompareOptions } from '../../scripts/bench/compare-options.ts';
import { formatRounds, summariseHeap, summariseRounds, type CompareRound } from '../../scripts/bench/compare-summary.ts';
import { parseCpuList } from '../../scripts/bench/cpu-pinning.ts';

describe('npm run bench:compare', () => {
  test('the help text states the defaults the parser uses', () => {
    const defaults = parseCompareOptions([], {});
    const stated = (variable: string) => new RegExp(`${variable}=([^,.\\s]+)`).exec(COMPARE_USAGE)?.[1];
    expect({
      against: stated('COMPARE_AGAINST'),
      path: stated('COMPARE_PATH'),
      connections: Number(stated('COMPARE_CONNECTIONS')),
      durationSeconds: Number(stated('COMPARE_DURATION')),
      warmupSeconds: Number(stated('COMPARE_WARMUP')),
      rounds: Number(stated('COMPARE_ROUNDS')),
      status: Number(stated('COMPARE_STATUS')),
    }).toEqual(defaults);
  });

  test('flags win over variables, and a value out of range is refused with the usage', () => {
    expect(parseCompareOptions(['--against', 'main~3', '--rounds', '2'], { COMPARE_ROUNDS: '9', COMPARE_PATH: '/' })).toMatchObject({ against: 'main~3', rounds: 2, path: '/' });
    expect(() => parseCompareOptions(['--connections', '0'], {})).toThrow(/--connections="0".*\n.*bench:compare/);
    expect(() => parseCompareOptions(['--path', 'bench'], {})).toThrow(/starts with \//);
    expect(parseCompareOptions(['--path', '/no/such/page', '--status', '404'], { COMPARE_STATUS: '500' })).toMatchObject({ status: 404 });
    expect(() => parseCompareOptions(['--status', '99'], {})).toThrow(/--status="99"/);
  });

  test('reads the CPU lists taskset prints', () => {
    expect(parseCpuList('0-3,6')).toEqual([0, 1, 2, 3, 6]);
    expect(parseCpuList(' 1')).toEqual([1]);
    expect(() => parseCpuList('3-1')).toThrow(/not a CPU list/);
  });

  const round = (treeMicros: number, revisionMicros: number, errors = 0): CompareRound => ({
    tree: { responses: 1_000, cpuMicros: treeMicros, errors, allocatedBytes: 81_920_000, pauseMicros: 25_000 },
    revision: { responses: 2_000, cpuMicros: revisionMicros, errors: 0, allocatedBytes: 153_600_000, pauseMicros: 40_000 },
  });

  test("the ratio is the tree's CPU per answer over the revision's, per round, with the mean and the spread", () => {
    // 200 µs per answer against 250, then 300 against 250.
    expect(summariseRounds([round(200_000, 500_000), round(300_000, 500_000)])).toEqual({ mean: 1, min: 0.8, max: 1.2 });
    const text = formatRounds([round(200_000, 500_000, 3)], { tree: 'tree', revision: 'abc1234' });
    expect(text).toContain('200 (1000, 3 errors) 80.0  250 (2000) 75.0  0.800');
    expect(text).toContain('tree / abc1234: 0.800 (rounds from 0.800 to 0.800)\n');
  });

  test("the heap per answer counts every round's answers, so a round with more answers weighs more", () => {
    // The tree: 80 KB per answer over 1,000 answers, then 100 KB over 3,000: 95 KB over all 4,000.
    const heavier: CompareRound = { ...round(1, 1), tree: { responses: 3_000, cpuMicros: 1, errors: 0, allocatedBytes: 307_200_000, pauseMicros: 95_000 } };
    expect(summariseHeap([round(1, 1), heavier])).toEqual({ treeKilobytes: 95, revisionKilobytes: 75, treePauseMicros: 30, revisionPauseMicros: 20 });
    const text = formatRounds([round(1, 1), heavier], { tree: 'tree', revision: 'abc1234' });
    expect(text).toContain('Heap allocated per answer: tree 95.0 KB, abc1234 75.0 KB (1.267)');
    expect(text).toMatch(/Collections' pause per answer: tree 30\.0 µs, abc1234 20\.0 µs$/);
  });

  test('a side that gave no answer has no ratio', () => {
    expect(summariseRounds([{ ...round(1, 1), revision: { responses: 0, cpuMicros: 5, errors: 1, allocatedBytes: 0, pauseMicros: 0 } }]).mean).toBeNaN();
  });
});
