/**
 * Preloaded (NODE_OPTIONS=--import) into a server process by test/process/crash-log.test.ts. On
 * SIGUSR2, an error that no request owns: thrown from a callback of the event loop
 * (`CRASH_KIND=throw`), or a rejected promise nobody awaits (`CRASH_KIND=rejection`), as a bug
 * in an app's timer or background job would make.
 */
process.on('SIGUSR2', function crash() {
  if (process.env.CRASH_KIND === 'rejection') {
    Promise.reject(new Error('preload: a rejection nobody awaited'));
    return;
  }
  setImmediate(() => {
    throw new TypeError('preload: a throw no request owns');
  });
});
