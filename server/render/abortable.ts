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
