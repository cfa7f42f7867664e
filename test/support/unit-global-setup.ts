import { buildFixtureClient, buildFixtureMain } from './fixture-server-build.ts';

/**
 * The unit tests' pages load the fixture client build (fixture-server-build.ts), and the
 * configuration tests start the product entry built around the fixture app: both made once
 * before any test runs.
 */
export default async function setup(): Promise<void> {
  await Promise.all([buildFixtureClient(), buildFixtureMain()]);
}
