import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HeapReport } from './heap-totals.ts';

/** Node flags that load the recorder into a bench server (heap-recorder.ts). */
export const HEAP_RECORDER_ARGS: readonly string[] = ['--import', new URL('./heap-recorder.ts', import.meta.url).href];

/** How long a loaded server may take to answer SIGUSR2: its event loop runs the handler between requests. */
const REPORT_DEADLINE_MS = 5_000;

function reportIn(file: string): HeapReport | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as HeapReport;
  } catch {
    // Not written yet, or caught half-written: the next look will do.
    return undefined;
  }
}

/** A server's file of heap totals, emptied for a new process. */
export function heapReportFile(dir: string, name: string): string {
  const file = join(dir, `heap-${name.replace(/[^a-z0-9-]+/gi, '_')}.json`);
  rmSync(file, { force: true });
  return file;
}

/**
 * Asks the server for its totals and waits for the report it writes in answer: one newer than
 * the file held before asking (the recorder writes only when asked, so nothing is half-written then).
 */
export async function readHeapReport(pid: number, file: string): Promise<HeapReport> {
  const after = reportIn(file)?.sequence ?? 0;
  process.kill(pid, 'SIGUSR2');
  const deadline = performance.now() + REPORT_DEADLINE_MS;
  while (performance.now() < deadline) {
    const report = reportIn(file);
    if (report !== undefined && report.sequence > after) return report;
    await sleep(5);
  }
  throw new Error(`server ${pid} wrote no heap totals to ${file} within ${REPORT_DEADLINE_MS} ms (is heap-recorder.ts loaded?)`);
}
