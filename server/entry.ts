import { join } from 'node:path';
import { loadServer } from './load-server.ts';

/**
 * The process entry, dist/server/main.js. It holds only the loader: the server itself is the
 * bundle beside it (server.cjs, from main.ts), which load-server.ts compiles with the V8 code
 * cache the build wrote, then starts (docs/deployment.md#code-cache). This file is compiled
 * without a cache on every start, so it stays a few kilobytes.
 */
const server = loadServer(import.meta.dirname);
await server.main({ defaultAssetsDir: join(import.meta.dirname, '..', 'client'), codeCache: server.codeCache });
