import type { ServerKey } from './bench-servers.ts';
import { httpGet } from '../lib/http-get.ts';
import { runLoad, type LoadResult } from './load.ts';
import { contenderOf, type Contender, type Marker, type Scenario } from './scenarios.ts';
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
  readonly contender: Contender;
  /** What this contender was asked for. */
  readonly path: string;
  /** One per round, in order: A B A B shows drift between rounds. */
  readonly runs: readonly LoadResult[];
  /** The server's CPU time per response in each measured round (all its threads), where /proc tells. */
  readonly cpuMicrosPerResponse: readonly number[];
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

/** Each server must really serve its page before its speed means anything. Resolves the answer's size in bytes, as sent (no compression asked for). */
async function verify(server: BenchServer, path: string, expectedStatus: number, marker: Marker, cookie: string | undefined): Promise<number> {
  const { status, body } = await httpGet(`${server.origin}${path}`, 10_000, 'GET', cookie);
  const markers = (typeof marker === 'string' ? [marker] : marker).filter((text) => text !== '');
  if (status !== expectedStatus || !markers.every((text) => body.includes(text))) {
    throw new Error(
      `${server.name} answered GET ${path} with ${status} (expected ${expectedStatus}${markers.map((text) => ` and ${text.startsWith('"') ? text : `"${text}"`}`).join('')})`,
    );
  }
  return Buffer.byteLength(body);
}

/**
 * Fresh processes for every scenario, so each peak RSS belongs to one scenario: one per
 * contender, even when two contenders are the same server asked for different pages. All of
 * the scenario's servers are up at once (the idle ones cost nothing) and take turns: warm-up
 * each, then rounds of A B A B.
 */
export async function runScenario(scenario: Scenario, specs: Readonly<Record<ServerKey, BenchServerSpec>>, settings: ScenarioSettings): Promise<ScenarioResult> {
  const scenarioUrlPath = scenarioPath(scenario, settings.assetPath);
  const contenders = [scenario.subject, ...scenario.others].map(contenderOf);
  const pathOf = (contender: Contender) => contender.path ?? scenarioUrlPath;
  const running = new Map<string, BenchServer>();
  const cookie = await scenario.cookie?.();
  try {
    for (const contender of contenders) running.set(contender.id, await spawnBenchServer(specs[contender.server], settings.logDir));
    const runs = new Map<string, LoadResult[]>(contenders.map((contender) => [contender.id, []]));
    const cpu = new Map<string, number[]>(contenders.map((contender) => [contender.id, []]));

    async function load(contender: Contender, durationSeconds: number): Promise<LoadResult> {
      const server = running.get(contender.id);
      if (server === undefined) throw new Error(`${contender.id} is not running`);
      return runLoad({ url: `${server.origin}${pathOf(contender)}`, connections: scenario.connections, durationSeconds, expectedStatus: scenario.expectedStatus, cookie });
    }

    for (const contender of contenders) {
      const server = running.get(contender.id);
      if (server === undefined) continue;
      const bytes = await verify(server, pathOf(contender), scenario.expectedStatus, contender.marker ?? scenario.marker, cookie);
      // Two pages compared as the same page (deferred-200, layouts-200) should weigh about the same.
      settings.progress(`${scenario.id.padEnd(13)} ${(contender.label ?? server.name).padEnd(24)} GET ${pathOf(contender)}: ${bytes.toLocaleString('en-US')} bytes`);
    }
    if (settings.warmupSeconds > 0) {
      for (const contender of contenders) await load(contender, settings.warmupSeconds);
    }
    for (let round = 1; round <= settings.rounds; round += 1) {
      for (const contender of contenders) {
        const server = running.get(contender.id);
        const cpuBefore = server?.cpuTimeMicros();
        const result = await load(contender, settings.durationSeconds);
        const cpuAfter = server?.cpuTimeMicros();
        runs.get(contender.id)?.push(result);
        // Less noisy than req/s on a shared machine: what the server spent, not how fast the load came.
        if (cpuBefore !== undefined && cpuAfter !== undefined && result.responses > 0) cpu.get(contender.id)?.push((cpuAfter - cpuBefore) / result.responses);
        const name = contender.label ?? running.get(contender.id)?.name ?? contender.id;
        settings.progress(
          `${scenario.id.padEnd(13)} round ${round}  ${name.padEnd(24)} ${Math.round(result.requestsPerSecond).toString().padStart(6)} req/s  p99 ${result.p99Ms} ms  errors ${result.errors}`,
        );
      }
    }
    return {
      scenario,
      path: scenarioUrlPath,
      servers: contenders.map((contender) => ({
        contender,
        path: pathOf(contender),
        runs: runs.get(contender.id) ?? [],
        cpuMicrosPerResponse: cpu.get(contender.id) ?? [],
        peakRssBytes: running.get(contender.id)?.peakRssBytes(),
      })),
    };
  } finally {
    await Promise.all([...running.values()].map((server) => server.stop()));
  }
}
