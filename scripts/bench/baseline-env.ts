/**
 * What a baseline server is told by the bench: its loopback port and the built client. Read
 * here, at each baseline's entry, so the servers themselves stay plain.
 */
export interface BaselineEnv {
  readonly port: number;
  readonly clientDir: string;
  /** The fixture build's client (the Suspense page's modules); only node:http + React needs it. */
  readonly fixtureClientDir: string | undefined;
}

export function readBaselineEnv(env: NodeJS.ProcessEnv): BaselineEnv {
  const port = Number(env.PORT);
  const clientDir = env.BENCH_CLIENT_DIR;
  if (!Number.isInteger(port) || port <= 0 || port > 65_535) throw new Error(`Invalid PORT=${JSON.stringify(env.PORT)}: expected 1 to 65535`);
  if (clientDir === undefined || clientDir === '') throw new Error('BENCH_CLIENT_DIR is not set: the folder of the built client');
  const fixtureClientDir = env.BENCH_FIXTURE_CLIENT_DIR === '' ? undefined : env.BENCH_FIXTURE_CLIENT_DIR;
  return { port, clientDir, fixtureClientDir };
}
