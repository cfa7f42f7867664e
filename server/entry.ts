import { join } from 'node:path';
import { enableServerCompileCache } from './compile-cache.ts';

/**
 * The process entry, dist/server/main.js. It turns on Node's compile cache, then imports the
 * server bundle beside it (server.js, main.ts with the app bound: server-bundle.d.ts; the build points this import there) through
 * Node's own loader, which compiles it with the code the build cached
 * (docs/deployment.md#compile-cache). This file is loaded before the cache is on, so it stays a
 * few kilobytes.
 */
const compileCache = enableServerCompileCache(import.meta.dirname);
const { main } = await import('./server-bundle.js');
await main({ defaultAssetsDir: join(import.meta.dirname, '..', 'client'), compileCache });
