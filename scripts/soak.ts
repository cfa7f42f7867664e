import { runSoak, unexpectedResources } from './soak/run-soak.ts';

/**
 * `npm run soak`: 20,000 requests to the streaming fixture, most disconnected mid-stream.
 * Fails if the heap grew more than 10% over warm-up, a handle was left open, or
 * anything was logged as an error.
 */
const requests = Number(process.env.SOAK_REQUESTS ?? 20_000);
const result = await runSoak({ requests, warmup: 2_000, concurrency: 50, abortShare: 0.8 });
const growth = result.end.heapUsed / result.warm.heapUsed - 1;
const leftover = unexpectedResources(result.end.resources);
const mib = (bytes: number) => (bytes / 1_048_576).toFixed(1);

process.stdout.write(
  [
    `requests: ${requests} (+2000 warm-up) in ${result.seconds.toFixed(1)} s`,
    `completed: ${result.completed}, aborted mid-stream: ${result.aborted}, failed: ${result.failed}`,
    `heap after GC: warm-up ${mib(result.warm.heapUsed)} MiB, end ${mib(result.end.heapUsed)} MiB (${(growth * 100).toFixed(1)}%)`,
    `handles at the end: ${result.end.resources.join(', ') || 'none'}`,
    `log lines: ${result.end.lines}, error lines: ${result.end.errorLines}`,
    '',
  ].join('\n'),
);

const problems = [
  growth > 0.1 ? `heap grew ${(growth * 100).toFixed(1)}% (limit 10%)` : undefined,
  leftover.length > 0 ? `handles left open: ${leftover.join(', ')}` : undefined,
  result.end.errorLines > 0 ? `${result.end.errorLines} error lines` : undefined,
  result.failed > 0 ? `${result.failed} requests failed` : undefined,
].filter((problem) => problem !== undefined);
if (problems.length > 0) {
  process.stderr.write(`soak FAILED: ${problems.join('; ')}\n`);
  process.exit(1);
}
process.stdout.write('soak passed\n');
