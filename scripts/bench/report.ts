import { SERVER_LABELS, type ServerKey } from './bench-servers.ts';
import type { ColdStart } from './cold-start.ts';
import type { JavaScriptWeight } from '../lib/first-load-js.ts';
import type { LighthouseReport } from './lighthouse-section.ts';
import type { Machine } from './machine.ts';
import type { PageWeight } from './page-weights.ts';
import type { ScenarioResult, ServerRuns } from './run-scenario.ts';
import { contenderOf, REACT_FLOOR } from './scenarios.ts';

export interface Ratios {
  /** req/s over the matching baseline's (higher is better). */
  readonly requestsPerSecond?: number;
  /** p99 over the matching baseline's (lower is better); Suspense scenarios only. */
  readonly p99?: number;
  /** Peak RSS over the bare React server's in the same scenario (lower is better). */
  readonly rss?: number;
  /** CPU time per response over the matching baseline's (lower is better); where /proc tells both. */
  readonly cpu?: number;
}

export interface TableRow {
  readonly scenario: string;
  readonly label: string;
  /** What this row's server was asked for. */
  readonly path: string;
  readonly connections: number;
  /** The row within its scenario: the server's key, or a contender's id (scenarios.ts). */
  readonly contender: string;
  readonly server: ServerKey;
  readonly serverLabel: string;
  /** Mean of the rounds; each round's figure beside it shows drift. */
  readonly requestsPerSecond: number;
  readonly roundsRequestsPerSecond: readonly number[];
  /** Means of the rounds' percentiles. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Sum over the rounds. */
  readonly errors: number;
  readonly errorDetail: { readonly unexpectedStatuses: number; readonly connectionErrors: number; readonly timeouts: number };
  readonly bytesPerResponse: number;
  /** The server's CPU time per response, all threads, mean of the rounds; undefined without /proc. */
  readonly cpuMicrosPerResponse: number | undefined;
  readonly peakRssMiB: number | undefined;
  /** The contender the ratios divide by; absent on baseline rows. */
  readonly comparedWith?: string;
  readonly ratios: Ratios;
}

export interface ColdStartRow {
  readonly server: ServerKey;
  readonly serverLabel: string;
  readonly medianMs: number;
  readonly samplesMs: readonly number[];
  /** Over the bare React server's median; absent on its own row. */
  readonly ratio?: number;
}

export interface FirstLoadRow {
  readonly page: string;
  readonly bytes: number;
  readonly gzipBytes: number;
  /** gzip bytes above the smallest hydrating bundle's; absent for pages with no JavaScript. */
  readonly gzipOverSmallest?: number;
}

export interface BenchReport {
  readonly date: string;
  readonly commit: string | undefined;
  readonly machine: Machine;
  readonly settings: {
    readonly durationSeconds: number;
    readonly warmupSeconds: number;
    readonly rounds: number;
    readonly coldStarts: number;
    readonly lighthouseRuns: number;
  };
  readonly rows: readonly TableRow[];
  readonly coldStart: readonly ColdStartRow[];
  readonly firstLoad: readonly FirstLoadRow[];
  readonly smallestHydratingBundle: { readonly bytes: number; readonly gzipBytes: number };
  /** Absent when the run skipped it (`--no-lighthouse`). */
  readonly lighthouse: LighthouseReport | undefined;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

const MIB = 1024 * 1024;

function ratioOf(value: number | undefined, baseline: number | undefined): number | undefined {
  return value === undefined || baseline === undefined || baseline === 0 ? undefined : value / baseline;
}

function withoutUndefined(ratios: { [K in keyof Ratios]: number | undefined }): Ratios {
  return Object.fromEntries(Object.entries(ratios).filter(([, value]) => value !== undefined));
}

/** One scenario's rows: figures per contender, and on the product's row its ratios to the matching baselines. */
export function scenarioRows(result: ScenarioResult): TableRow[] {
  const { scenario } = result;
  const subject = contenderOf(scenario.subject).id;
  const byContender = new Map<string, ServerRuns>(result.servers.map((runs) => [runs.contender.id, runs]));
  const figures = (runs: ServerRuns | undefined) =>
    runs === undefined
      ? undefined
      : {
          requestsPerSecond: mean(runs.runs.map((run) => run.requestsPerSecond)),
          p99Ms: mean(runs.runs.map((run) => run.p99Ms)),
          rss: runs.peakRssBytes,
          cpu: runs.cpuMicrosPerResponse.length === 0 ? undefined : mean(runs.cpuMicrosPerResponse),
        };
  const baseline = figures(byContender.get(scenario.comparison.baseline));
  const rssBaseline = figures(byContender.get(REACT_FLOOR));

  return result.servers.map((runs) => {
    const own = figures(runs);
    const isSubject = runs.contender.id === subject;
    const ratios: Ratios = isSubject
      ? withoutUndefined({
          requestsPerSecond: ratioOf(own?.requestsPerSecond, baseline?.requestsPerSecond),
          p99: scenario.comparison.p99 ? ratioOf(own?.p99Ms, baseline?.p99Ms) : undefined,
          rss: ratioOf(own?.rss, rssBaseline?.rss),
          cpu: ratioOf(own?.cpu, baseline?.cpu),
        })
      : {};
    return {
      scenario: scenario.id,
      label: scenario.label,
      path: runs.path,
      connections: scenario.connections,
      contender: runs.contender.id,
      server: runs.contender.server,
      serverLabel: runs.contender.label ?? SERVER_LABELS[runs.contender.server],
      requestsPerSecond: own?.requestsPerSecond ?? Number.NaN,
      roundsRequestsPerSecond: runs.runs.map((run) => run.requestsPerSecond),
      p50Ms: mean(runs.runs.map((run) => run.p50Ms)),
      p99Ms: own?.p99Ms ?? Number.NaN,
      errors: sum(runs.runs.map((run) => run.errors)),
      errorDetail: {
        unexpectedStatuses: sum(runs.runs.map((run) => run.unexpectedStatuses)),
        connectionErrors: sum(runs.runs.map((run) => run.connectionErrors)),
        timeouts: sum(runs.runs.map((run) => run.timeouts)),
      },
      bytesPerResponse: mean(runs.runs.map((run) => run.bytesPerResponse)),
      cpuMicrosPerResponse: own?.cpu,
      peakRssMiB: runs.peakRssBytes === undefined ? undefined : runs.peakRssBytes / MIB,
      ...(isSubject ? { comparedWith: scenario.comparison.baseline } : {}),
      ratios,
    };
  });
}

export function coldStartRows(servers: readonly ServerKey[], results: readonly ColdStart[]): ColdStartRow[] {
  const baseline = results[servers.indexOf(REACT_FLOOR)]?.medianMs;
  return servers.map((server, index) => {
    const result = results[index];
    const medianMs = result?.medianMs ?? Number.NaN;
    const ratio = server === REACT_FLOOR ? undefined : ratioOf(medianMs, baseline);
    return { server, serverLabel: SERVER_LABELS[server], medianMs, samplesMs: result?.samplesMs ?? [], ...(ratio === undefined ? {} : { ratio }) };
  });
}

export function firstLoadRows(pages: readonly PageWeight[], smallest: JavaScriptWeight): FirstLoadRow[] {
  return pages.map(({ page, weight }) => ({
    page,
    bytes: weight.bytes,
    gzipBytes: weight.gzipBytes,
    ...(weight.bytes === 0 ? {} : { gzipOverSmallest: weight.gzipBytes - smallest.gzipBytes }),
  }));
}
