import { afterEach, describe, expect, test } from 'vitest';
import { loadInOrder, observeRejections } from '../../server/render/loads-in-order.ts';

/**
 * The two promises a branch's loads make that nobody may leave alone (server/render/loads-in-order.ts):
 * a deferred value of a level nobody shows (a kept layout's, a guard's) that rejects later must be
 * handled, or Node ends the process for an unhandled rejection; and a level whose load returns at
 * once costs no promise.
 */

const unhandled: unknown[] = [];
const listen = (reason: unknown) => unhandled.push(reason);

afterEach(() => {
  process.off('unhandledRejection', listen);
  unhandled.splice(0);
});

/** A deferred value that rejects on the next turn, as a slow query that fails would. */
function failsLater(why: string): Promise<never> {
  return new Promise((_resolve, reject) => setImmediate(() => reject(new Error(why))));
}

/** Waits past the turn in which Node reports a rejection nobody handled. */
async function pastRejections(): Promise<void> {
  for (let round = 0; round < 5; round += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe('a value nobody shows', () => {
  test('has every deferred promise it holds handled, in objects, arrays, maps and sets, to eight levels down', async () => {
    process.on('unhandledRejection', listen);
    // The value is level 0: this promise is at level 8.
    const eightDown = { a: { b: { c: { d: { e: { f: { g: failsLater('eight levels down') } } } } } } };
    observeRejections({
      direct: failsLater('direct'),
      list: [1, failsLater('in an array')],
      byName: new Map([['x', failsLater('in a map')]]),
      set: new Set([failsLater('in a set')]),
      eightDown,
      nothing: null,
      text: 'plain',
    });
    observeRejections(failsLater('the value itself'));
    await pastRejections();
    expect(unhandled).toEqual([]);
  });

  test('that holds itself is walked to a bound, not forever', () => {
    const loop: { self?: unknown; list: unknown[] } = { list: [] };
    loop.self = loop;
    loop.list.push(loop);
    expect(() => observeRejections(loop)).not.toThrow();
  });
});

describe('the loads of a branch', () => {
  test('that all return at once settle at once, with no promise', () => {
    const results = loadInOrder([() => 'shell', () => ({ page: 1 })], () => undefined);
    expect(results).toEqual([
      { status: 'fulfilled', value: 'shell' },
      { status: 'fulfilled', value: { page: 1 } },
    ]);
  });
});
