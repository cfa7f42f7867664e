/**
 * Preloaded (NODE_OPTIONS=--import) by test/unit/server-build.test.ts: counts the
 * AsyncLocalStorage instances made, and prints the count as the process ends. React's server
 * renderer makes one as its module runs, so a count of 0 says the server bundle was never run.
 */
import asyncHooks from 'node:async_hooks';
import { syncBuiltinESMExports } from 'node:module';

let made = 0;
const Original = asyncHooks.AsyncLocalStorage;
// A getter on the module object: replaced by a plain value, as the module is not frozen.
Object.defineProperty(asyncHooks, 'AsyncLocalStorage', {
  value: class CountedAsyncLocalStorage extends Original {
    constructor(...args) {
      super(...args);
      made += 1;
    }
  },
});
syncBuiltinESMExports();
process.on('exit', () => process.stdout.write(`AsyncLocalStorage instances: ${made}\n`));
