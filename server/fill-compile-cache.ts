import { flushCompileCache } from 'node:module';
import { enableServerCompileCache } from './compile-cache.ts';

/**
 * `node dist/server/fill-compile-cache.js`, run by `npm run build` and by the image's own Node as
 * the user that runs the server (Dockerfile): enables Node's compile cache in the folder the
 * entry reads, imports the server bundle (which starts nothing) and writes what Node compiled
 * (docs/deployment.md#compile-cache). Node keeps the code V8 compiles as it loads a module,
 * before the module runs, so loading it is all a start would add; starting the server and asking
 * it pages would put nothing more in.
 */
const compileCache = enableServerCompileCache(import.meta.dirname);
if (compileCache.status !== 'enabled') {
  throw new Error(`filling the compile cache: Node's compile cache is ${compileCache.status}${compileCache.message === undefined ? '' : `: ${compileCache.message}`}`);
}
await import('./main.ts');
flushCompileCache();
