import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { buildClient, APP_ROUTES, ROOT } from '../build-client.ts';
import { buildServer, bundleNodeEntry, serverBuildOptions } from '../build-server.ts';

/** Everything the bench runs, built into its own folder so a concurrent `npm run build` cannot pull files from under it. */
export interface BenchBuild {
  /** The product's client build, which the product and the baselines serve. */
  readonly clientDir: string;
  /** The fixture build's client: the product's pages plus the two streaming pages. */
  readonly fixtureClientDir: string;
  readonly productEntry: string;
  readonly fixtureEntry: string;
  readonly baselines: { readonly httpReact: string; readonly express: string; readonly httpBytes: string };
}

export const BENCH_DIR = join(ROOT, 'dist', 'bench');
const BENCH_ROUTES = join(import.meta.dirname, 'bench-routes.tsx');

/**
 * Gives the product the bench's route table (bench-routes.tsx) wherever it imports `app/routes.ts`; every
 * other import is the product's own. Says whether it swapped anything, so a moved import fails
 * the build instead of silently benchmarking a server without the fixture.
 */
function benchRoutesPlugin(swapped: { count: number }): esbuild.Plugin {
  return {
    name: 'bench-routes',
    setup(build) {
      build.onResolve({ filter: /routes\.ts$/ }, (args) => {
        if (args.importer === BENCH_ROUTES || join(args.resolveDir, args.path) !== APP_ROUTES) return undefined;
        swapped.count += 1;
        return { path: BENCH_ROUTES };
      });
    },
  };
}

async function buildBaseline(name: string, outDir: string): Promise<string> {
  const outfile = join(outDir, `${name}.js`);
  // Production React, as the product has: the ratios compare servers, not React builds.
  await bundleNodeEntry(join(import.meta.dirname, `${name}.tsx`), outfile, 'production');
  return outfile;
}

/**
 * `npm run build` into dist/bench (same functions, same settings), the same server and client
 * again with the fixture's routes, and the baselines, bundled by the same esbuild for the same
 * Node. Every server bundle lives one folder below its client's parent, so `main.ts` finds the
 * client at `../client/` as it does in production: dist/bench/server/ serves dist/bench/client/,
 * dist/bench/fixture/server/ serves dist/bench/fixture/client/.
 */
export async function buildBench(): Promise<BenchBuild> {
  const clientDir = join(BENCH_DIR, 'client');
  const fixtureClientDir = join(BENCH_DIR, 'fixture', 'client');
  // The old layout had the fixture server directly in dist/bench/fixture/; start clean.
  await rm(join(BENCH_DIR, 'fixture'), { recursive: true, force: true });
  await Promise.all([
    buildClient({ routesModule: APP_ROUTES, outDir: clientDir, mode: 'production' }),
    buildClient({ routesModule: BENCH_ROUTES, outDir: fixtureClientDir, mode: 'production' }),
  ]);
  const productDir = join(BENCH_DIR, 'server');
  const fixtureDir = join(BENCH_DIR, 'fixture', 'server');
  const baselineDir = join(BENCH_DIR, 'baselines');
  const swapped = { count: 0 };
  // The fixture build serves load, not cold starts: it is left without a code cache.
  const fixture = serverBuildOptions(fixtureDir, 'production');
  await Promise.all([
    buildServer(productDir),
    esbuild.build(fixture.entry),
    esbuild.build({ ...fixture.server, plugins: [...(fixture.server.plugins ?? []), benchRoutesPlugin(swapped)] }),
  ]);
  if (swapped.count === 0) throw new Error('fixture build: the server never imports app/routes.ts, so the fixture route is missing');
  // The baselines fill their compile caches at their first start: empty, so the cold start's
  // check (cold-start.ts) sees what this build's bundles wrote.
  await rm(join(baselineDir, 'compile-cache'), { recursive: true, force: true });
  const [httpReact, express, httpBytes] = await Promise.all(['baseline-http-react', 'baseline-express', 'baseline-http-bytes'].map((name) => buildBaseline(name, baselineDir)));
  if (httpReact === undefined || express === undefined || httpBytes === undefined) throw new Error('a baseline did not build');
  return { clientDir, fixtureClientDir, productEntry: join(productDir, 'main.js'), fixtureEntry: join(fixtureDir, 'main.js'), baselines: { httpReact, express, httpBytes } };
}
