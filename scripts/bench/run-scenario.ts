import type { ServerKey } from './bench-servers.ts';
import { httpGet } from '../lib/http-get.ts';
import { runLoad, type LoadResult } from './load.ts';
import type { Scenario } from './scenarios.ts';
import { spawnBenchServer, type BenchServer, type BenchServerSpec } from './spawn-bench-server.ts';

export interface ScenarioSettings {
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly rounds: number;
  /** The `/assets/` file of the static scenario. */
  readonly assetPath: string;
  readonly logDir: string;
  /** Hears progress lines (the bench writes them to stderr). */
  readonly progress: (line: string) => void;
}

export interface ServerRuns {
  readonly server: ServerKey;
  /** One per round, in order: A B A B shows drift between rounds. */
  readonly runs: readonly LoadResult[];
  readonly peakRssBytes: number | undefined;
}

export interface ScenarioResult {
  readonly scenario: Scenario;
  readonly path: string;
  readonly servers: readonly ServerRuns[];
}

export function scenarioPath(scenario: Scenario, assetPath: string): string {
  return typeof scenario.path === 'function' ? scenario.path(assetPath) : scenario.path;
}

/** Each server must really serve the scenario's page before its speed means anything. */
async function verify(server: BenchServer, path: string, scenario: Scenario): Promise<void> {
  const { status, body } = await httpGet(`${server.origin}${path}`, 10_000);
  if (status !== scenario.expectedStatus || !body.includes(scenario.marker)) {
    throw new Error(`${server.name} answered GET ${path} with ${status} (expected ${scenario.expectedStatus}${scenario.marker === '' ? '' : ` and "${scenario.marker}"`})`);
  }
}

/**
 * Fresh processes for every scenario, so each peak RSS belongs to one scenario. All the
 * scenario's servers are up at once (the idle ones cost nothing) and take turns: warm-up
 * each, then rounds of A B A B.
 */
export async function runScenario(scenario: Scenario, specs: Readonly<Record<ServerKey, BenchServerSpec>>, settings: ScenarioSettings): Promise<ScenarioResult> {
  const path = scenarioPath(scenario, settings.assetPath);
  const keys = [scenario.subject, ...scenario.others];
  const running = new Map<ServerKey, BenchServer>();
  try {
    for (const key of keys) running.set(key, await spawnBenchServer(specs[key], settings.logDir));
    const runs = new Map<ServerKey, LoadResult[]>(keys.map((key) => [key, []]));

    async function load(key: ServerKey, durationSeconds: number): Promise<LoadResult> {
      const server = running.get(key);
      if (server === undefined) throw new Error(`${key} is not running`);
      return runLoad({ url: `${server.origin}${path}`, connections: scenario.connections, durationSeconds, expectedStatus: scenario.expectedStatus });
    }

    for (const [, server] of running) await verify(server, path, scenario);
    if (settings.warmupSeconds > 0) {
      for (const key of keys) await load(key, settings.warmupSeconds);
    }
    for (let round = 1; round <= settings.rounds; round += 1) {
      for (const key of keys) {
        const result = await load(key, settings.durationSeconds);
        runs.get(key)?.push(result);
        settings.progress(
          `${scenario.id.padEnd(13)} round ${round}  ${(running.get(key)?.name ?? key).padEnd(24)} ${Math.round(result.requestsPerSecond).toString().padStart(6)} req/s  p99 ${result.p99Ms} ms  errors ${result.errors}`,
        );
      }
    }
    return {
      scenario,
      path,
      servers: keys.map((key) => ({ server: key, runs: runs.get(key) ?? [], peakRssBytes: running.get(key)?.peakRssBytes() })),
    };
  } finally {
    await Promise.all([...running.values()].map((server) => server.stop()));
  }
}
