import { expect, test } from 'vitest';
import { runSoak, unexpectedResources } from '../../scripts/soak/run-soak.ts';

test('a few hundred mid-stream disconnects leave no heap growth, no handles and no error lines', async () => {
  const result = await runSoak({ requests: 600, warmup: 300, concurrency: 20, abortShare: 0.8 });
  expect(result.aborted).toBeGreaterThan(400);
  expect(result.failed).toBe(0);
  expect(result.end.errorLines).toBe(0);
  expect(unexpectedResources(result.end.resources)).toEqual([]);
  // Small runs are noisy; the 10% bound of `npm run soak` is checked over 20,000 requests.
  expect(result.end.heapUsed).toBeLessThan(result.warm.heapUsed * 1.25);
});
