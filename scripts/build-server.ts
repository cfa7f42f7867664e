import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { ROOT } from './build-client.ts';

/** esbuild settings of the server bundle, shared by `build` and the watch mode of `dev`. */
export function serverBuildOptions(outDir: string): esbuild.BuildOptions {
  return {
    entryPoints: { main: join(ROOT, 'server', 'main.ts') },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: ['node24'],
    outdir: outDir,
    jsx: 'automatic',
    sourcemap: 'linked',
    minify: false,
    logLevel: 'warning',
  };
}

/** Bundles the server so `npm start` runs plain JavaScript; packages stay in node_modules. */
export async function buildServer(outDir: string): Promise<void> {
  await esbuild.build(serverBuildOptions(outDir));
}

/** Bundles another Node entry (fixture servers, soak, bench baselines) the way the server is. */
export async function bundleNodeEntry(entry: string, outfile: string): Promise<void> {
  const { entryPoints: _entryPoints, outdir: _outdir, ...shared } = serverBuildOptions('');
  await esbuild.build({ ...shared, entryPoints: [entry], outfile, sourcemap: false });
}
