import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildClient } from '../../scripts/build-client.ts';
import { bundleNodeEntry } from '../../scripts/build-server.ts';

export const FIXTURE_OUT = join(import.meta.dirname, '..', '..', 'dist', 'browser-fixtures');
/** The fixture pages built as `npm run dev` builds them: React's development warnings on. */
export const DEVELOPMENT_ASSETS = join(FIXTURE_OUT, 'client-development');
export const CHROMIUM = '/usr/bin/chromium';

/** Why the run stops before building anything when the browser is not there. */
export function missingChromiumMessage(): string {
  return `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium), as .ci/run does; the tests never download a browser`;
}

/** Builds the fixture pages' client bundles and the fixture server once for all browser tests. */
export default async function setup(): Promise<void> {
  if (!existsSync(CHROMIUM)) throw new Error(missingChromiumMessage());
  const pagesDir = join(import.meta.dirname, 'pages');
  await Promise.all([
    buildClient({ pagesDir, outDir: join(FIXTURE_OUT, 'client'), mode: 'production' }),
    buildClient({ pagesDir, outDir: DEVELOPMENT_ASSETS, mode: 'development' }),
    bundleNodeEntry(join(import.meta.dirname, 'fixture-server.tsx'), join(FIXTURE_OUT, 'server', 'fixture-server.js')),
  ]);
}
