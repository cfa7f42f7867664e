import { parseArgs } from 'node:util';
import { numericFlags } from './command-line.ts';
import { SUSPENSE_PATH } from './suspense-fixture.ts';

/** What `npm run bench:compare` runs: parsed once from flags, else `COMPARE_*` variables, else defaults. */
export interface CompareOptions {
  /** The git revision whose build the working tree's is held against. */
  readonly against: string;
  /** The fixture build's path both servers are loaded on. */
  readonly path: string;
  /** Connections each server gets, at the same time as the other's. */
  readonly connections: number;
  /** Seconds of each measured run. */
  readonly durationSeconds: number;
  /** Seconds of load both servers get, together, before each measured run. */
  readonly warmupSeconds: number;
  /** Fresh pairs of servers, each measured once. */
  readonly rounds: number;
  /** The status every answer must have: another counts as an error (404 to compare the status page). */
  readonly status: number;
}

export const COMPARE_USAGE = `npm run bench:compare -- [--against REV] [--path PATH] [--connections N]
                            [--duration S] [--warmup S] [--rounds N] [--status N]
Holds the working tree's fixture build against REV's: both servers share one core, each under
its own load at the same time, and each round prints their CPU time and heap allocated per
request and the CPU ratio; then, over all rounds, each side's heap and collections' pause per request.
Defaults: COMPARE_AGAINST=HEAD, COMPARE_PATH=${SUSPENSE_PATH}, COMPARE_CONNECTIONS=100,
COMPARE_DURATION=6, COMPARE_WARMUP=3, COMPARE_ROUNDS=4, COMPARE_STATUS=200.`;

const { integer } = numericFlags(COMPARE_USAGE);

export function parseCompareOptions(args: readonly string[], env: NodeJS.ProcessEnv): CompareOptions {
  const { values } = parseArgs({
    args: [...args],
    options: {
      against: { type: 'string' },
      path: { type: 'string' },
      connections: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      status: { type: 'string' },
    },
    strict: true,
  });
  const path = values.path ?? env.COMPARE_PATH ?? SUSPENSE_PATH;
  if (!path.startsWith('/')) throw new Error(`Invalid --path=${JSON.stringify(path)}: expected a path that starts with /\n${COMPARE_USAGE}`);
  return {
    against: values.against ?? env.COMPARE_AGAINST ?? 'HEAD',
    path,
    connections: integer('--connections', values.connections ?? env.COMPARE_CONNECTIONS, 100, 1, 2_000),
    durationSeconds: integer('--duration', values.duration ?? env.COMPARE_DURATION, 6, 1, 600),
    warmupSeconds: integer('--warmup', values.warmup ?? env.COMPARE_WARMUP, 3, 0, 600),
    rounds: integer('--rounds', values.rounds ?? env.COMPARE_ROUNDS, 4, 1, 20),
    status: integer('--status', values.status ?? env.COMPARE_STATUS, 200, 100, 599),
  };
}
