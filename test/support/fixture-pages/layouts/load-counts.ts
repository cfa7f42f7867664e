/** How many times each layout fixture's load ran in this process: on every request inside it, kept or not (its load may be a guard). */
const counts = new Map<string, number>();

export function countLoad(id: string): number {
  const next = (counts.get(id) ?? 0) + 1;
  counts.set(id, next);
  return next;
}

export function loadCounts(): Readonly<Record<string, number>> {
  return Object.fromEntries(counts);
}
