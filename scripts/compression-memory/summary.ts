const MiB = 1_048_576;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Bytes in MiB: the median, then the range when there is more than one value (`412 (398–440)`). */
export function mibSpread(values: readonly number[]): string {
  const format = (bytes: number) => (bytes / MiB).toFixed(0);
  if (values.length < 2) return format(median(values));
  return `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;
}

export function mibMedian(values: readonly number[], digits = 0): string {
  return (median(values) / MiB).toFixed(digits);
}
