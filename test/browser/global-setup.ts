import { join } from 'node:path';
import { buildClient } from '../../scripts/build-client.ts';
import { bundleFixtureServer } from '../support/fixture-server-build.ts';

export const FIXTURE_OUT = join(import.meta.dirname, '..', '..', 'dist', 'browser-fixtures');
/** The fixture pages built as `npm run dev` builds them: React's development warnings on. */
export const DEVELOPMENT_ASSETS = join(FIXTURE_OUT, 'client-development');

/**
 * Builds the fixture pages' client bundles and the fixture server once for all browser tests.
 * Whether Chromium is there was settled before this project was let into the run
 * (test/support/system-components.ts, from vitest.config.ts).
 */
export default async function setup(): Promise<void> {
  const routesModule = join(import.meta.dirname, '..', 'support', 'fixture-server-routes.tsx');
  await Promise.all([
    buildClient({ routesModule, outDir: join(FIXTURE_OUT, 'client'), mode: 'production' }),
    buildClient({ routesModule, outDir: DEVELOPMENT_ASSETS, mode: 'development' }),
    bundleFixtureServer(join(FIXTURE_OUT, 'server', 'fixture-server.js')),
  ]);
}
