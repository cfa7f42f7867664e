import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { ReactDestination } from '../../server/render/react-destination.ts';

/**
 * What React writes in one synchronous batch leaves as one write, flushed or not, and nothing the
 * destination arms outlives that batch. An Immediate armed there (inside React's async context)
 * would keep the whole render and its response alive until the event loop's check phase: under
 * load, hundreds of finished pages a turn, copied by young collections and promoted. The
 * document's bytes on the wire are tested by the streaming tests; this is what they cannot see.
 */

function recordingTarget(): { target: Writable & { flush(): void }; writes: string[]; flushes: number[] } {
  const writes: string[] = [];
  const flushes: number[] = [];
  const target = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        writes.push(chunk.toString());
        callback();
      },
    }),
    {
      flush() {
        flushes.push(writes.length);
      },
    },
  );
  return { target, writes, flushes };
}

const pendingImmediates = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Immediate').length;

describe("React's destination", () => {
  test('slices written without a flush leave as one write at the end of their batch, and no Immediate is armed', async () => {
    const { target, writes, flushes } = recordingTarget();
    const destination = new ReactDestination(target);
    const before = pendingImmediates();
    destination.write(Buffer.from('<div>'));
    destination.write(Buffer.from('shell'));
    destination.write(Buffer.from('</div>'));
    // Held while the batch runs: one write for the socket, however React sliced it.
    expect(writes).toEqual([]);
    expect(pendingImmediates()).toBe(before);
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    expect(writes).toEqual(['<div>shell</div>']);
    expect(flushes).toEqual([]);
  });

  test('each batch leaves as its own write, the second as well as the first', async () => {
    const { target, writes } = recordingTarget();
    const destination = new ReactDestination(target);
    const endOfBatch = () => new Promise<void>((resolve) => queueMicrotask(resolve));
    destination.write(Buffer.from('shell'));
    await endOfBatch();
    destination.write(Buffer.from('boundary '));
    destination.write(Buffer.from('one'));
    await endOfBatch();
    expect(writes).toEqual(['shell', 'boundary one']);
  });

  test('when the response closes early, what was held is dropped and the destination closes, so React stops', async () => {
    const { target, writes } = recordingTarget();
    const destination = new ReactDestination(target);
    const closed = new Promise<void>((resolve) => destination.once('close', () => resolve()));
    destination.write(Buffer.from('never sent'));
    target.destroy();
    await closed;
    expect(destination.destroyed).toBe(true);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(writes).toEqual([]);
  });

  test("React's flush sends what it holds at once and reaches the target's own flush", () => {
    const { target, writes, flushes } = recordingTarget();
    const destination = new ReactDestination(target);
    destination.write(Buffer.from('a'));
    destination.write(Buffer.from('b'));
    destination.flush();
    expect(writes).toEqual(['ab']);
    expect(flushes).toEqual([1]);
  });
});
