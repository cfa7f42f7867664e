/**
 * Settles with `work`, or rejects as soon as it is stopped: `listen` is handed the rejection to
 * call on a stop, and returns what forgets it once `work` has settled.
 */
export function untilStopped<T>(work: T | Promise<T>, listen: (stop: (reason: unknown) => void) => () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const forget = listen(reject);
    Promise.resolve(work).then(
      (value) => {
        forget();
        resolve(value);
      },
      (error: unknown) => {
        forget();
        reject(error);
      },
    );
  });
}

/** Settles with `work`, or rejects with the signal's reason as soon as it aborts. */
export function untilAborted<T>(work: T | Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return untilStopped(work, (stop) => {
    const onAbort = () => stop(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    return () => signal.removeEventListener('abort', onAbort);
  });
}
