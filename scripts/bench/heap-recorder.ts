/**
 * Loaded into a bench server with `node --import` (bench:compare): counts what the process
 * allocates on V8's heap and how long collections pause it (heap-totals.ts), and writes the
 * running totals to BENCH_HEAP_FILE each time the bench sends SIGUSR2. The server's code is
 * untouched: the count comes from Node's GCProfiler, which only listens to the collector.
 */
import { writeFileSync } from 'node:fs';
import { GCProfiler, getHeapStatistics } from 'node:v8';
import { addCollections, allocatedUpTo, startTotals, type CollectionRecord, type HeapReport } from './heap-totals.ts';

const file = process.env.BENCH_HEAP_FILE;
if (file === undefined) throw new Error('heap-recorder.ts needs BENCH_HEAP_FILE: the file it writes its totals to');

let totals = startTotals(getHeapStatistics().used_heap_size);
let profiler = new GCProfiler();
profiler.start();
let sequence = 0;

process.on('SIGUSR2', function reportHeapTotals() {
  // stop() hands over the collections so far; a new profiler counts from here on.
  const records = (profiler.stop()?.statistics ?? []) as unknown as readonly CollectionRecord[];
  profiler = new GCProfiler();
  profiler.start();
  totals = addCollections(totals, records);
  sequence += 1;
  const report: HeapReport = { sequence, allocatedBytes: allocatedUpTo(totals, getHeapStatistics().used_heap_size), pauseMicros: totals.pauseMicros };
  writeFileSync(file, JSON.stringify(report));
});
