/** One server's share of a measured run: the answers it gave and the CPU time it spent on them. */
export interface SideRun {
  readonly responses: number;
  readonly cpuMicros: number;
  /** Unexpected statuses, connection errors and timeouts. */
  readonly errors: number;
}

export interface CompareRound {
  readonly tree: SideRun;
  readonly revision: SideRun;
}

export function cpuPerResponse({ responses, cpuMicros }: SideRun): number {
  return responses === 0 ? Number.NaN : cpuMicros / responses;
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

const micros = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(0));
const ratio = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(3));

/** One line per round, then the mean and the spread. */
export function formatRounds(rounds: readonly CompareRound[], labels: { readonly tree: string; readonly revision: string }): string {
  const header = `round  ${labels.tree} µs/answer (answers)  ${labels.revision} µs/answer (answers)  ratio`;
  const lines = rounds.map((round, index) => {
    const side = (run: SideRun) => `${micros(cpuPerResponse(run))} (${run.responses}${run.errors > 0 ? `, ${run.errors} errors` : ''})`;
    return `${String(index + 1).padStart(5)}  ${side(round.tree)}  ${side(round.revision)}  ${ratio(roundRatio(round))}`;
  });
  const { mean, min, max } = summariseRounds(rounds);
  return [header, ...lines, `CPU per answer, ${labels.tree} / ${labels.revision}: ${ratio(mean)} (rounds from ${ratio(min)} to ${ratio(max)})`].join('\n');
}
