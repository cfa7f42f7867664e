import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { buildClient } from '../../scripts/build-client.ts';

export const FIXTURE_OUT = join(import.meta.dirname, '..', '..', 'dist', 'browser-fixtures');

/** Builds the fixture pages' client bundle and the fixture server once for all browser tests. */
export default async function setup(): Promise<void> {
  await buildClient({ pagesDir: join(import.meta.dirname, 'pages'), outDir: join(FIXTURE_OUT, 'client'), mode: 'production' });
  await esbuild.build({
    entryPoints: [join(import.meta.dirname, 'fixture-server.tsx')],
    outfile: join(FIXTURE_OUT, 'server', 'fixture-server.js'),
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: ['node24'],
    jsx: 'automatic',
    logLevel: 'warning',
  });
}
