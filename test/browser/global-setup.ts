import { join } from 'node:path';
import { buildClient } from '../../scripts/build-client.ts';
import { bundleNodeEntry } from '../../scripts/build-server.ts';

export const FIXTURE_OUT = join(import.meta.dirname, '..', '..', 'dist', 'browser-fixtures');

/** Builds the fixture pages' client bundle and the fixture server once for all browser tests. */
export default async function setup(): Promise<void> {
  await buildClient({ pagesDir: join(import.meta.dirname, 'pages'), outDir: join(FIXTURE_OUT, 'client'), mode: 'production' });
  await bundleNodeEntry(join(import.meta.dirname, 'fixture-server.tsx'), join(FIXTURE_OUT, 'server', 'fixture-server.js'));
}
