import { join } from 'node:path';
import { bundleNodeEntry } from '../../scripts/build-server.ts';

/**
 * The fixture server of the process and proxy tests: in dist/fixtures/, so it serves the
 * product's client build, dist/client/ (from `npm run build`), as dist/server/main.js does.
 */
export const FIXTURE_SERVER_ENTRY = join(import.meta.dirname, '..', '..', 'dist', 'fixtures', 'fixture-server.js');

/**
 * Bundles fixture-server.tsx to `outfile` the way the product's server is bundled. The bundle
 * serves the client build in `client/` beside its own folder (see fixture-server.tsx), so the
 * global setup that calls this chooses the client by where it puts the bundle.
 */
export function bundleFixtureServer(outfile: string): Promise<void> {
  return bundleNodeEntry(join(import.meta.dirname, 'fixture-server.tsx'), outfile);
}
