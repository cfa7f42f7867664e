/** One server's share of a measured run: the answers it gave and what it spent on them. */
export interface SideRun {
  readonly responses: number;
  readonly cpuMicros: number;
  /** Unexpected statuses, connection errors and timeouts. */
  readonly errors: number;
  /** Bytes allocated on V8's heap during the run (heap-totals.ts). */
  readonly allocatedBytes: number;
  /** Time the run's garbage collections paused the server's main thread. */
  readonly pauseMicros: number;
}

export interface CompareRound {
  readonly tree: SideRun;
  readonly revision: SideRun;
}

/** `amount` per answer: NaN for a side that gave none. */
const perResponse = (amount: number, { responses }: SideRun): number => (responses === 0 ? Number.NaN : amount / responses);

export function cpuPerResponse(run: SideRun): number {
  return perResponse(run.cpuMicros, run);
}

/** The working tree's CPU time per answer over the revision's: under 1 is cheaper. */
export function roundRatio({ tree, revision }: CompareRound): number {
  return cpuPerResponse(tree) / cpuPerResponse(revision);
}

export interface CompareSummary {
  readonly mean: number;
  readonly min: number;
  readonly max: number;
}

export function summariseRounds(rounds: readonly CompareRound[]): CompareSummary {
  const ratios = rounds.map(roundRatio);
  if (ratios.length === 0 || ratios.some(Number.isNaN)) return { mean: Number.NaN, min: Number.NaN, max: Number.NaN };
  return { mean: ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length, min: Math.min(...ratios), max: Math.max(...ratios) };
}

/** Each side's heap allocation (KB) and collection pause (µs) per answer, over all rounds' answers. */
export interface HeapSummary {
  readonly treeKilobytes: number;
  readonly revisionKilobytes: number;
  readonly treePauseMicros: number;
  readonly revisionPauseMicros: number;
}

export function summariseHeap(rounds: readonly CompareRound[]): HeapSummary {
  const total = (side: 'tree' | 'revision'): SideRun =>
    rounds.reduce<SideRun>(
      (sum, round) => ({
        responses: sum.responses + round[side].responses,
        cpuMicros: sum.cpuMicros + round[side].cpuMicros,
        errors: sum.errors + round[side].errors,
        allocatedBytes: sum.allocatedBytes + round[side].allocatedBytes,
        pauseMicros: sum.pauseMicros + round[side].pauseMicros,
      }),
      { responses: 0, cpuMicros: 0, errors: 0, allocatedBytes: 0, pauseMicros: 0 },
    );
  const [tree, revision] = [total('tree'), total('revision')];
  return {
    treeKilobytes: perResponse(tree.allocatedBytes, tree) / 1024,
    revisionKilobytes: perResponse(revision.allocatedBytes, revision) / 1024,
    treePauseMicros: perResponse(tree.pauseMicros, tree),
    revisionPauseMicros: perResponse(revision.pauseMicros, revision),
  };
}

const fixed = (digits: number) => (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(digits));
const micros = fixed(0);
const tenths = fixed(1);
const kilobytes = tenths;
const ratio = fixed(3);

/** One line per round, then the mean and the spread of the CPU ratio, and the heap per answer. */
export function formatRounds(rounds: readonly CompareRound[], labels: { readonly tree: string; readonly revision: string }): string {
  const header = `round  ${labels.tree} µs/answer (answers) KB/answer  ${labels.revision} µs/answer (answers) KB/answer  ratio`;
  const lines = rounds.map((round, index) => {
    const side = (run: SideRun) =>
      `${micros(cpuPerResponse(run))} (${run.responses}${run.errors > 0 ? `, ${run.errors} errors` : ''}) ${kilobytes(perResponse(run.allocatedBytes, run) / 1024)}`;
    return `${String(index + 1).padStart(5)}  ${side(round.tree)}  ${side(round.revision)}  ${ratio(roundRatio(round))}`;
  });
  const { mean, min, max } = summariseRounds(rounds);
  const heap = summariseHeap(rounds);
  return [
    header,
    ...lines,
    `CPU per answer, ${labels.tree} / ${labels.revision}: ${ratio(mean)} (rounds from ${ratio(min)} to ${ratio(max)})`,
    `Heap allocated per answer: ${labels.tree} ${kilobytes(heap.treeKilobytes)} KB, ${labels.revision} ${kilobytes(heap.revisionKilobytes)} KB (${ratio(heap.treeKilobytes / heap.revisionKilobytes)})`,
    `Collections' pause per answer: ${labels.tree} ${tenths(heap.treePauseMicros)} µs, ${labels.revision} ${tenths(heap.revisionPauseMicros)} µs`,
  ].join('\n');
}
