import { join } from 'node:path';
import { buildClient, ROOT } from './build-client.ts';
import { buildServer } from './build-server.ts';

/** `npm run build`: the production client (dist/client) and server (dist/server). */
const started = performance.now();
const pages = await buildClient({ pagesDir: join(ROOT, 'shared', 'pages'), outDir: join(ROOT, 'dist', 'client'), mode: 'production' });
await buildServer(join(ROOT, 'dist', 'server'));
const seconds = ((performance.now() - started) / 1000).toFixed(2);
process.stdout.write(`built ${Object.keys(pages).length} page bundle(s) and the server in ${seconds} s\n`);
