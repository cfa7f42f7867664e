import { basename, dirname, join } from 'node:path';
import type { BenchBuild } from './build-bench.ts';
import type { BenchServerSpec } from './spawn-bench-server.ts';

/** The servers a scenario can run; the product's two builds and the three baselines. */
export type ServerKey = 'product' | 'product-fixture' | 'http-react' | 'express' | 'http-bytes';

export const SERVER_LABELS: Readonly<Record<ServerKey, string>> = {
  product: 'product',
  'product-fixture': 'product (fixture build)',
  'http-react': 'node:http + React',
  express: 'bare Express 5',
  'http-bytes': 'node:http bytes',
};

/**
 * The product runs as in production (NODE_ENV=production, info logs to a file), with no
 * shutdown delay so the bench does not wait 5 s per stop, and no overload guard. With `cpuProfileDir`, the product's
 * builds write a V8 CPU profile there when they exit. The React and Express baselines start with
 * Node's compile cache on (`NODE_COMPILE_CACHE`, beside their bundles), as the product does, so
 * a cold start compares loading, not compiling; they exit on the bench's SIGTERM so that Node
 * writes it (baseline-exit.ts).
 */
export function serverSpecs(build: BenchBuild, cpuProfileDir: string | undefined): Readonly<Record<ServerKey, BenchServerSpec>> {
  // Without the overload guard: autocannon's clients ignore Retry-After, and a scenario would time
  // the 503 page instead of its own; the overload figure (overload.ts) turns it back on.
  const productEnv = { SHUTDOWN_DELAY_MS: '0', LOG_LEVEL: 'info', OVERLOAD_GUARD: 'off' };
  const profile = cpuProfileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`];
  const baselineEnv = { BENCH_CLIENT_DIR: build.clientDir, BENCH_FIXTURE_CLIENT_DIR: build.fixtureClientDir };
  // One folder each, so the cold start can check that each wrote its own (cold-start.ts).
  const cachedBaselineEnv = (entry: string) => ({ ...baselineEnv, NODE_COMPILE_CACHE: join(dirname(entry), 'compile-cache', basename(entry, '.js')) });
  return {
    product: { name: SERVER_LABELS.product, entry: build.productEntry, env: productEnv, execArgv: profile },
    'product-fixture': { name: SERVER_LABELS['product-fixture'], entry: build.fixtureEntry, env: productEnv, execArgv: profile },
    'http-react': { name: SERVER_LABELS['http-react'], entry: build.baselines.httpReact, env: cachedBaselineEnv(build.baselines.httpReact) },
    express: { name: SERVER_LABELS.express, entry: build.baselines.express, env: cachedBaselineEnv(build.baselines.express) },
    'http-bytes': { name: SERVER_LABELS['http-bytes'], entry: build.baselines.httpBytes, env: baselineEnv },
  };
}
