import { join } from 'node:path';
import { buildClient } from '../../scripts/build-client.ts';
import { buildServer, bundleNodeEntry } from '../../scripts/build-server.ts';

const FIXTURES_DIR = join(import.meta.dirname, '..', '..', 'dist', 'fixtures');

/** The framework's own route table for its tests (never the app's). */
export const FIXTURE_ROUTES_MODULE = join(import.meta.dirname, 'fixture-server-routes.tsx');

/**
 * The client build of the fixture routes, production mode: what the unit tests' pages load and
 * what the fixture server of the process and proxy tests serves, so no framework test depends on
 * the app's pages or its build.
 */
export const FIXTURE_CLIENT_DIR = join(FIXTURES_DIR, 'client');

/**
 * The fixture server of the process and proxy tests: in dist/fixtures/server/, so it serves the
 * fixture client build beside it, dist/fixtures/client/, as dist/server/main.js serves dist/client/.
 */
export const FIXTURE_SERVER_ENTRY = join(FIXTURES_DIR, 'server', 'fixture-server.js');

/**
 * The product entry (server/entry.ts and main.ts) built as `npm run build` builds it, around the
 * fixture app (fixture-app.ts) rather than the app's: the tests of what `node dist/server/main.js`
 * does (start failures, configuration, shutdown, the image recipe) run this. Its folder is beside
 * FIXTURE_CLIENT_DIR, which it serves, as dist/server/ serves dist/client/.
 */
export const FIXTURE_MAIN_DIR = join(FIXTURES_DIR, 'main');
export const FIXTURE_MAIN_ENTRY = join(FIXTURE_MAIN_DIR, 'main.js');

/** Builds FIXTURE_MAIN_DIR: the server bundle, its entries and their compile cache. */
export function buildFixtureMain(): Promise<void> {
  return buildServer(FIXTURE_MAIN_DIR, join(import.meta.dirname, 'fixture-app.ts'));
}

/** Builds FIXTURE_CLIENT_DIR; the global setups of the unit, process and proxy tests call it before any test runs. */
export async function buildFixtureClient(): Promise<void> {
  await buildClient({ routesModule: FIXTURE_ROUTES_MODULE, outDir: FIXTURE_CLIENT_DIR, mode: 'production' });
}

/**
 * Bundles fixture-server.tsx to `outfile` the way the product's server is bundled. The bundle
 * serves the client build in `client/` beside its own folder (see fixture-server.tsx), so the
 * global setup that calls this chooses the client by where it puts the bundle.
 */
export function bundleFixtureServer(outfile: string): Promise<void> {
  return bundleNodeEntry(join(import.meta.dirname, 'fixture-server.tsx'), outfile);
}
