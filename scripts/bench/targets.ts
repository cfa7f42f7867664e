import { FIRST_LOAD_ALLOWANCE_BYTES } from '../lib/first-load-js.ts';
import type { BenchReport, TableRow } from './report.ts';

/** One of issue 5's targets, judged on one run's table. */
export interface TargetCheck {
  readonly target: string;
  /** The measured ratio or size; `undefined` when the run did not include it. */
  readonly value: number | undefined;
  readonly limit: number;
  readonly kind: 'at least' | 'at most';
  readonly met: boolean | undefined;
}

function check(target: string, value: number | undefined, kind: TargetCheck['kind'], limit: number): TargetCheck {
  const met = value === undefined || Number.isNaN(value) ? undefined : kind === 'at least' ? value >= limit : value <= limit;
  return { target, value, limit, kind, met };
}

function subjectRow(rows: readonly TableRow[], scenario: string): TableRow | undefined {
  return rows.find((row) => row.scenario === scenario && row.comparedWith !== undefined);
}

/**
 * Issue 5's targets. Peak RSS is judged on the product's worst scenario: the highest ratio to
 * the bare React server measured beside it.
 */
export function checkTargets(report: BenchReport): TargetCheck[] {
  const { rows } = report;
  const rssRatios = rows.map((row) => row.ratios.rss).filter((ratio) => ratio !== undefined);
  const home = report.firstLoad[0];
  const statusPages = report.firstLoad.slice(1);
  return [
    check('404 req/s vs bare Express 404', subjectRow(rows, '404')?.ratios.requestsPerSecond, 'at least', 0.8),
    check('home req/s vs bare Express home', subjectRow(rows, 'home')?.ratios.requestsPerSecond, 'at least', 0.8),
    check('suspense@200 req/s vs node:http React', subjectRow(rows, 'suspense-200')?.ratios.requestsPerSecond, 'at least', 0.9),
    check('suspense@200 p99 vs node:http React', subjectRow(rows, 'suspense-200')?.ratios.p99, 'at most', 1.3),
    check('suspense@50 req/s vs node:http React', subjectRow(rows, 'suspense-50')?.ratios.requestsPerSecond, 'at least', 0.97),
    check('peak RSS vs node:http React (worst scenario)', rssRatios.length === 0 ? undefined : Math.max(...rssRatios), 'at most', 1.3),
    check('cold start vs node:http React', report.coldStart.find((row) => row.ratio !== undefined)?.ratio, 'at most', 1.2),
    check('/ first-load gzip over smallest bundle (bytes)', home?.gzipOverSmallest, 'at most', FIRST_LOAD_ALLOWANCE_BYTES),
    check('status pages first-load JS (bytes)', statusPages.length === 0 ? undefined : Math.max(...statusPages.map((page) => page.bytes)), 'at most', 0),
  ];
}
