import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildClient } from '../../scripts/build-client.ts';
import { runBuild } from '../../scripts/lib/run-build.ts';

/** `node build-route-table.ts <routes module>`: the client build of a fixture table, run as `npm run build` runs its steps. */
const [routesModule] = process.argv.slice(2);
if (routesModule === undefined) throw new Error('usage: build-route-table.ts <routes module>');
const outDir = await mkdtemp(join(tmpdir(), 'build-route-table-'));
await runBuild(async () => {
  await buildClient({ routesModule, outDir, mode: 'production' });
});
