/**
 * What a bench server allocates on V8's heap, and how long its collections paused it, counted
 * from the collections themselves (Node's `v8.GCProfiler`): each one reports the heap's used size
 * before and after it, so what was allocated between two collections is the size before the
 * second less the size after the first. Exact, where sampling profilers estimate.
 */

/** The part of a GCProfiler record these totals read. */
export interface CollectionRecord {
  /** Pause, in microseconds. */
  readonly cost: number;
  readonly beforeGC: { readonly heapStatistics: { readonly usedHeapSize: number } };
  readonly afterGC: { readonly heapStatistics: { readonly usedHeapSize: number } };
}

export interface HeapTotals {
  /** Allocated up to the last collection counted. */
  readonly allocatedBytes: number;
  readonly pauseMicros: number;
  /** The heap's used size after that collection, or when counting began. */
  readonly usedAfterLast: number;
}

export function startTotals(usedNow: number): HeapTotals {
  return { allocatedBytes: 0, pauseMicros: 0, usedAfterLast: usedNow };
}

/** The totals with `records`, in the order they happened, counted. */
export function addCollections(totals: HeapTotals, records: readonly CollectionRecord[]): HeapTotals {
  let { allocatedBytes, pauseMicros, usedAfterLast } = totals;
  for (const record of records) {
    allocatedBytes += record.beforeGC.heapStatistics.usedHeapSize - usedAfterLast;
    usedAfterLast = record.afterGC.heapStatistics.usedHeapSize;
    pauseMicros += record.cost;
  }
  return { allocatedBytes, pauseMicros, usedAfterLast };
}

/** Allocated up to now: to the last collection, then what the heap has grown by since. */
export function allocatedUpTo(totals: HeapTotals, usedNow: number): number {
  return totals.allocatedBytes + usedNow - totals.usedAfterLast;
}

/** What the recorder writes each time it is asked: the running totals, numbered. */
export interface HeapReport {
  readonly sequence: number;
  readonly allocatedBytes: number;
  readonly pauseMicros: number;
}
