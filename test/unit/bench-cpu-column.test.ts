import { describe, expect, test } from 'vitest';
import { formatReport } from '../../scripts/bench/format-table.ts';
import type { LoadResult } from '../../scripts/bench/load.ts';
import { scenarioRows, type BenchReport } from '../../scripts/bench/report.ts';
import type { ScenarioResult } from '../../scripts/bench/run-scenario.ts';
import { SCENARIOS } from '../../scripts/bench/scenarios.ts';

function run(requestsPerSecond: number): LoadResult {
  return { requestsPerSecond, p50Ms: 10, p99Ms: 20, errors: 0, unexpectedStatuses: 0, connectionErrors: 0, timeouts: 0, responses: requestsPerSecond * 5, bytesPerResponse: 1_000 };
}

const scenario = SCENARIOS.find(({ id }) => id === 'app-json');
if (scenario === undefined) throw new Error('no app-json scenario');

/** The product at 210 µs per answer (two rounds), its floor at 84: 2.5 times the floor's CPU. */
const result: ScenarioResult = {
  scenario,
  path: '/bench/api/app-list',
  servers: [
    {
      contender: { id: 'product-fixture', server: 'product-fixture' },
      path: '/bench/api/app-list',
      runs: [run(4_000), run(4_400)],
      cpuMicrosPerResponse: [200, 220],
      peakRssBytes: 100 * 1024 * 1024,
    },
    {
      contender: { id: 'http-react', server: 'http-react' },
      path: '/bench/api/app-list',
      runs: [run(10_000), run(10_000)],
      cpuMicrosPerResponse: [84, 84],
      peakRssBytes: 50 * 1024 * 1024,
    },
  ],
};

function report(rows: BenchReport['rows']): BenchReport {
  return {
    date: '2026-12-02T00:00:00.000Z',
    commit: 'abc1234',
    machine: { cores: 2, cpu: 'test', memoryGiB: 1, node: 'v24.0.0', kernel: 'test', loadAverage: 0 },
    settings: { durationSeconds: 5, warmupSeconds: 2, rounds: 2, coldStarts: 0, lighthouseRuns: 0 },
    rows,
    coldStart: [],
    firstLoad: [],
    smallestHydratingBundle: { bytes: 0, gzipBytes: 0 },
    lighthouse: undefined,
  };
}

/** The throughput table's cells of the row whose server column reads `server`, by header. */
function cellsOf(text: string, server: string): Record<string, string> {
  const lines = text.split('\n');
  const headerIndex = lines.findIndex((line) => line.startsWith('scenario '));
  const header = lines[headerIndex] ?? '';
  const dashes = lines[headerIndex + 1] ?? '';
  // Columns are the runs of dashes under the header, two spaces apart.
  const spans = [...dashes.matchAll(/-+/g)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
  const row = lines.slice(headerIndex + 2).find((line) => line.slice(spans[2]?.start, spans[2]?.end).trim() === server) ?? '';
  return Object.fromEntries(spans.map(({ start, end }) => [header.slice(start, end).trim(), row.slice(start, end).trim()]));
}

describe('the bench table’s CPU per answer', () => {
  test('the product’s row shows its CPU µs per answer and its ratio to the floor’s; the floor’s row shows its own and no ratio', () => {
    const text = formatReport(report(scenarioRows(result)), []);
    const product = cellsOf(text, 'product (fixture build)');
    const floor = cellsOf(text, 'node:http + React');
    expect(product['CPU µs']).toBe('210.0');
    expect(product['x CPU']).toBe('2.50');
    expect(product['ratios to']).toBe('node:http + React');
    expect(floor['CPU µs']).toBe('84.0');
    expect(floor['x CPU']).toBe('');
  });

  test('without /proc there is no CPU figure and no ratio', () => {
    const blind: ScenarioResult = { ...result, servers: result.servers.map((server) => ({ ...server, cpuMicrosPerResponse: [] })) };
    const text = formatReport(report(scenarioRows(blind)), []);
    const product = cellsOf(text, 'product (fixture build)');
    expect(product['CPU µs']).toBe('-');
    expect(product['x CPU']).toBe('');
    expect(product['x req/s']).toBe('0.42');
  });
});
