import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT } from '../build-client.ts';
import { assetFile, firstLoadUrls } from '../lib/manifest-urls.ts';
import { parseBenchOptions, USAGE } from './bench-options.ts';
import { progress, readOptions } from './command-line.ts';
import { serverSpecs } from './bench-servers.ts';
import { BENCH_DIR, buildBench } from './build-bench.ts';
import { measureColdStarts } from './cold-start.ts';
import { measureLighthouse, type LighthouseReport } from './lighthouse-section.ts';
import { coldStartTable, formatReport } from './format-table.ts';
import { describeMachine } from './machine.ts';
import { manyDeferredSection, measureManyDeferred, type ManyDeferredFigure } from './many-deferred.ts';
import { measureOverload, overloadSection, type OverloadFigure } from './overload.ts';
import { measurePageWeights } from './page-weights.ts';
import { coldStartRows, firstLoadRows, scenarioRows, type BenchReport } from './report.ts';
import { runScenario, type ScenarioResult } from './run-scenario.ts';
import { COLD_START_SERVERS, SCENARIOS } from './scenarios.ts';
import { spawnBenchServer } from './spawn-bench-server.ts';
import { checkTargets } from './targets.ts';
import { chromiumPath, isPresent } from '../../test/support/system-components.ts';

/**
 * `npm run bench`: builds the product, a fixture build and the baselines, puts each
 * under load from autocannon in this process, server by server in turns, runs Lighthouse on the
 * product's `/` in the machine's Chromium, and prints one table.
 * Loopback only; every child dies with the bench (child-registry.ts); the whole run has a deadline.
 */
function commit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** The static scenario's file: the smallest first-load file of `/`, so the figure is the server's cost per request, not a copy of 200 KB. */
async function staticAssetPath(clientDir: string): Promise<string> {
  const urls = await firstLoadUrls(clientDir, '/');
  const sized = urls.map((url) => ({ url, size: statSync(assetFile(clientDir, url)).size })).sort((a, b) => a.size - b.size);
  const smallest = sized[0];
  if (smallest === undefined) throw new Error('the home page has no built files');
  return smallest.url;
}

const options = readOptions(parseBenchOptions, USAGE);
if (!process.version.startsWith('v24.')) {
  process.stderr.write(`bench: Node ${process.version}; run it with the pinned Node 24 (npm run bench)\n`);
  process.exit(2);
}
const unknown = options.scenarios.filter((id) => !SCENARIOS.some((scenario) => scenario.id === id));
if (unknown.length > 0) {
  process.stderr.write(`bench: unknown scenario(s) ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.id).join(', ')}\n${USAGE}\n`);
  process.exit(2);
}
const onlyOne = options.coldStartOnly || options.manyDeferredOnly || options.overloadOnly;
const scenarios = onlyOne ? [] : options.scenarios.length === 0 ? SCENARIOS : SCENARIOS.filter((scenario) => options.scenarios.includes(scenario.id));
// Lighthouse drives the machine's Chromium (never a downloaded one): say so before building.
if (!onlyOne && options.lighthouseRuns > 0 && !isPresent(chromiumPath())) {
  process.stderr.write(
    `bench: Chromium not found at ${chromiumPath()} for the Lighthouse section: set CHROMIUM_PATH, install it (apt-get install -y chromium), or pass --no-lighthouse\n`,
  );
  process.exit(2);
}

// Bounded: twice the planned load time plus two minutes for builds, starts and cold starts,
// a minute per Lighthouse run (one takes about 10 s), 10 s per many-deferred run, and the
// overload figure's two runs with their deadlines.
const plannedSeconds = scenarios.reduce((total, scenario) => total + (1 + scenario.others.length) * (options.warmupSeconds + options.rounds * options.durationSeconds), 0);
const overloadBound = options.overloadSeconds === 0 ? 0 : 2 * (options.overloadSeconds + 30);
const deadlineSeconds = Math.round(plannedSeconds * 2 + 120 + options.lighthouseRuns * 60 + options.manyDeferredRuns * 10 + overloadBound);
const deadline = setTimeout(() => {
  progress(`bench: still running after ${deadlineSeconds} s, giving up`);
  process.exit(1);
}, deadlineSeconds * 1000);
deadline.unref();

const cpuProfileDir = options.cpuProfileDir === undefined ? undefined : resolve(options.cpuProfileDir);
if (cpuProfileDir !== undefined) mkdirSync(cpuProfileDir, { recursive: true });
/** The `.cpuprofile` files in the profile folder; those of this run are the ones not there at its start. */
const cpuProfiles = (): string[] => (cpuProfileDir === undefined ? [] : readdirSync(cpuProfileDir).filter((file) => file.endsWith('.cpuprofile')));
const earlierProfiles = new Set(cpuProfiles());
const logDir = join(BENCH_DIR, 'logs');
// An interrupted run leaves its servers' logs behind; they are of no use to this one.
rmSync(logDir, { recursive: true, force: true });

const machine = describeMachine();
if (machine.loadAverage > machine.cores / 2) {
  progress(`bench: warning: load average ${machine.loadAverage} on ${machine.cores} cores before starting; figures will be noisy`);
}
progress(`bench: building (planned load ${plannedSeconds} s)`);
const build = await buildBench();
const specs = serverSpecs(build, cpuProfileDir);
// Profiles come from the load scenarios only: one file per scenario, nothing from starts.
const unprofiled = serverSpecs(build, undefined);
const assetPath = await staticAssetPath(build.clientDir);

const results: ScenarioResult[] = [];
for (const scenario of scenarios) {
  results.push(await runScenario(scenario, specs, { ...options, assetPath, logDir, progress }));
}

let overload: OverloadFigure | undefined;
if (options.overloadSeconds > 0 && !options.coldStartOnly && !options.manyDeferredOnly) {
  progress(`bench: overload (1,000 connections on the app-shaped page, ${options.overloadSeconds} s, with and without its measures)`);
  overload = await measureOverload(unprofiled['product-fixture'], options.overloadSeconds, logDir);
}
if (options.overloadOnly) {
  rmSync(logDir, { recursive: true, force: true });
  process.stdout.write(
    `\n${overload === undefined ? 'overload figure skipped (--overload-seconds 0)\n' : overloadSection(overload)}commit ${commit() ?? 'unknown'}, load average ${machine.loadAverage} at start\n`,
  );
  process.exit(0);
}

let manyDeferred: ManyDeferredFigure | undefined;
if (options.manyDeferredRuns > 0 && !options.coldStartOnly) {
  progress(`bench: many deferred values (${options.manyDeferredRuns} runs of each answer)`);
  manyDeferred = await measureManyDeferred(unprofiled['product-fixture'], options.manyDeferredRuns, logDir);
}
if (options.manyDeferredOnly) {
  rmSync(logDir, { recursive: true, force: true });
  process.stdout.write(
    `\n${manyDeferred === undefined ? 'many-deferred figure skipped (--many-deferred-runs 0)\n' : manyDeferredSection(manyDeferred)}commit ${commit() ?? 'unknown'}, load average ${machine.loadAverage} at start\n`,
  );
  process.exit(0);
}

progress(`bench: cold starts (${options.coldStarts} per server)`);
const coldStarts = await measureColdStarts(
  COLD_START_SERVERS.map((key) => unprofiled[key]),
  options.coldStarts,
  logDir,
);
if (options.coldStartOnly) {
  rmSync(logDir, { recursive: true, force: true });
  process.stdout.write(`\nCold start: spawn to first 200 on /, median of ${options.coldStarts}; commit ${commit() ?? 'unknown'}, load average ${machine.loadAverage} at start\n`);
  process.stdout.write(`${coldStartTable({ coldStart: coldStartRows(COLD_START_SERVERS, coldStarts) })}\n`);
  process.exit(0);
}

progress('bench: first-load JavaScript');
const product = await spawnBenchServer(unprofiled.product, logDir);
const weights = await measurePageWeights(product, build.clientDir).finally(() => product.stop());

let lighthouse: LighthouseReport | undefined;
if (options.lighthouseRuns > 0) {
  progress(`bench: Lighthouse (${options.lighthouseRuns} run${options.lighthouseRuns === 1 ? '' : 's'} on /, mobile, simulated throttling)`);
  const audited = await spawnBenchServer(unprofiled.product, logDir);
  lighthouse = await measureLighthouse(audited, options.lighthouseRuns, progress).finally(() => audited.stop());
}
rmSync(logDir, { recursive: true, force: true });

const report: BenchReport = {
  date: new Date().toISOString(),
  commit: commit(),
  machine,
  settings: {
    durationSeconds: options.durationSeconds,
    warmupSeconds: options.warmupSeconds,
    rounds: options.rounds,
    coldStarts: options.coldStarts,
    lighthouseRuns: options.lighthouseRuns,
  },
  rows: results.flatMap(scenarioRows),
  coldStart: coldStartRows(COLD_START_SERVERS, coldStarts),
  firstLoad: firstLoadRows(weights.pages, weights.smallest),
  smallestHydratingBundle: { bytes: weights.smallest.bytes, gzipBytes: weights.smallest.gzipBytes },
  lighthouse,
};
const checks = checkTargets(report);
process.stdout.write(`\n${formatReport(report, checks)}`);
if (manyDeferred !== undefined) process.stdout.write(`\n${manyDeferredSection(manyDeferred)}`);
if (overload !== undefined) process.stdout.write(`\n${overloadSection(overload)}`);
if (options.jsonFile !== undefined) {
  writeFileSync(options.jsonFile, `${JSON.stringify({ ...report, targets: checks, manyDeferred, overload }, null, 2)}\n`);
  progress(`bench: wrote ${options.jsonFile}`);
}
if (cpuProfileDir !== undefined) {
  for (const file of cpuProfiles().filter((name) => !earlierProfiles.has(name))) progress(`bench: CPU profile ${join(cpuProfileDir, file)}`);
  progress('bench: open a profile in Chrome DevTools (Performance panel, "Load profile") or at https://www.speedscope.app');
}
