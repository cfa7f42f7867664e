import { join } from 'node:path';
import { buildClient, APP_ROUTES, PROJECT } from './build-client.ts';
import { buildServer } from './build-server.ts';
import { runBuild } from './lib/run-build.ts';
import { writeRouteTypes } from './route-types/write-route-types.ts';

/** `npm run build`: the route types (.react-stream-shell/types), the production client (dist/client) and server (dist/server). */
await runBuild(async () => {
  const started = performance.now();
  await writeRouteTypes(APP_ROUTES, PROJECT);
  const routes = await buildClient({ routesModule: APP_ROUTES, outDir: join(PROJECT, 'dist', 'client'), mode: 'production' });
  await buildServer(join(PROJECT, 'dist', 'server'));
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  process.stdout.write(`built the client of ${Object.keys(routes).length} hydrating route(s) and the server in ${seconds} s\n`);
});
