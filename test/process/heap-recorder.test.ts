import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HEAP_RECORDER_ARGS, heapReportFile, readHeapReport } from '../../scripts/bench/heap-reading.ts';

/**
 * `npm run bench:compare`'s heap figures (docs/benchmark.md#running-it) come from a recorder
 * loaded into each server. Here it is loaded into a process that allocates a known amount when
 * told to: the totals it reports between two readings must be that amount, counted across the
 * collections it triggers and the growth since the last one.
 */
const ARRAY_LENGTH = 1_000_000;
const ARRAYS = 25;
// A million small integers in a JavaScript array: eight bytes each (Node's heap holds 64-bit values).
const ALLOCATED = ARRAYS * ARRAY_LENGTH * 8;

const ALLOCATOR = `
let kept;
process.stdin.on('data', () => {
  for (let i = 0; i < ${ARRAYS}; i += 1) kept = new Array(${ARRAY_LENGTH}).fill(i);
  process.stdout.write('allocated\\n');
});
process.stdout.write('ready\\n');
`;

describe('the heap recorder of bench:compare', () => {
  let dir: string;
  let child: ChildProcess;
  let file: string;

  async function line(expected: string): Promise<void> {
    const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
    expect(chunk.toString()).toBe(`${expected}\n`);
  }

  beforeAll(async () => {
    dir = await mkdtemp(`${tmpdir()}/heap-recorder-`);
    file = heapReportFile(dir, 'allocator');
    child = spawn(process.execPath, [...HEAP_RECORDER_ARGS, '--input-type=module', '-e', ALLOCATOR], {
      env: { ...process.env, BENCH_HEAP_FILE: file },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    await line('ready');
  });

  afterAll(async () => {
    child.kill();
    await rm(dir, { recursive: true, force: true });
  });

  test('counts what the process allocates between two readings, and the pauses of its collections', async () => {
    const before = await readHeapReport(child.pid as number, file);
    child.stdin?.write('go\n');
    await line('allocated');
    const after = await readHeapReport(child.pid as number, file);
    expect(after.sequence).toBe(before.sequence + 1);
    // The arrays, plus the little the process allocates besides (the report, the stream's chunks).
    expect(after.allocatedBytes - before.allocatedBytes).toBeGreaterThanOrEqual(ALLOCATED);
    expect(after.allocatedBytes - before.allocatedBytes).toBeLessThan(ALLOCATED * 1.05);
    // 200 MB do not fit in V8's heap as it starts: collections ran, and paused the process.
    expect(after.pauseMicros).toBeGreaterThan(before.pauseMicros);
  });
});
