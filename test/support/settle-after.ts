/** Settles with `outcome()` after `ms`, or rejects with what it throws: a deferred value of a test page. */
export function after<T>(ms: number, outcome: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    setTimeout(() => {
      try {
        resolve(outcome());
      } catch (error) {
        reject(error);
      }
    }, ms);
  });
}

/**
 * Suspense fixtures need one promise per request: Fizz re-renders a suspended component from
 * scratch, so a promise made during render would be new every time. Keyed by an object that
 * stays the same across retries (the page's data) and, in the browser, for the page's life.
 */
export function createSettleAfter<T>(): (key: object, ms: number, outcome: () => T) => Promise<T> {
  const pending = new WeakMap<object, Promise<T>>();
  return function settleAfter(key, ms, outcome) {
    let promise = pending.get(key);
    if (promise === undefined) {
      promise =
        ms < 0
          ? // Never settles, and holds no timer that would outlive the test.
            new Promise<T>(() => undefined)
          : after(ms, outcome);
      pending.set(key, promise);
    }
    return promise;
  };
}
