import { buildFixtureClient } from './fixture-server-build.ts';

/** The unit tests' pages load the fixture client build (fixture-server-build.ts), made once before any test runs. */
export default async function setup(): Promise<void> {
  await buildFixtureClient();
}
