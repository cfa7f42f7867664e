import { FIRST_LOAD_ALLOWANCE_BYTES, NAVIGATION_ALLOWANCE_BYTES } from '../lib/first-load-js.ts';
import { ALL_CATEGORIES, CATEGORY_LABELS } from './lighthouse.ts';
import { STATUS_PAGES } from './page-weights.ts';
import type { BenchReport, TableRow } from './report.ts';

/** One target, judged on one run's table. */
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

/** Lighthouse reports fractions of a millisecond; the targets are whole ones. */
function roundedMs(value: number | undefined): number | undefined {
  return value === undefined ? undefined : Math.round(value);
}

function subjectRow(rows: readonly TableRow[], scenario: string): TableRow | undefined {
  return rows.find((row) => row.scenario === scenario && row.comparedWith !== undefined);
}

/**
 * The server's targets, the deferred-data and layouts pages', and Lighthouse's (mobile, simulated throttling,
 * medians of the runs). Peak RSS is judged on the product's worst scenario: the highest ratio to
 * the bare React server measured beside it.
 */
export function checkTargets(report: BenchReport): TargetCheck[] {
  const { rows } = report;
  const rssRatios = rows.map((row) => row.ratios.rss).filter((ratio) => ratio !== undefined);
  const home = report.firstLoad[0];
  const withoutNavigation = report.firstLoad[1];
  const statusPages = report.firstLoad.filter((row) => STATUS_PAGES.some(({ page }) => page === row.page));
  const lighthouse = report.lighthouse?.median;
  return [
    check('404 req/s vs bare Express 404', subjectRow(rows, '404')?.ratios.requestsPerSecond, 'at least', 0.8),
    check('home req/s vs bare Express home', subjectRow(rows, 'home')?.ratios.requestsPerSecond, 'at least', 0.8),
    check('suspense@1000 req/s vs node:http React (CPU-bound)', subjectRow(rows, 'suspense-1000')?.ratios.requestsPerSecond, 'at least', 0.7),
    check('suspense@200 req/s vs node:http React', subjectRow(rows, 'suspense-200')?.ratios.requestsPerSecond, 'at least', 0.95),
    check('suspense@200 p99 vs node:http React', subjectRow(rows, 'suspense-200')?.ratios.p99, 'at most', 1.2),
    check('suspense@50 req/s vs node:http React', subjectRow(rows, 'suspense-50')?.ratios.requestsPerSecond, 'at least', 0.97),
    check('static asset req/s vs node:http bytes', subjectRow(rows, 'static')?.ratios.requestsPerSecond, 'at least', 0.8),
    check('deferred@200 req/s vs local-promise page', subjectRow(rows, 'deferred-200')?.ratios.requestsPerSecond, 'at least', 0.95),
    check('layouts@200 req/s vs the same page flat', subjectRow(rows, 'layouts-200')?.ratios.requestsPerSecond, 'at least', 0.95),
    check('peak RSS vs node:http React (worst scenario)', rssRatios.length === 0 ? undefined : Math.max(...rssRatios), 'at most', 1.3),
    check('cold start vs node:http React', report.coldStart.find((row) => row.server === 'product')?.ratio, 'at most', 1.5),
    check('/ first-load gzip over smallest bundle, navigation aside (bytes)', withoutNavigation?.gzipOverSmallest, 'at most', FIRST_LOAD_ALLOWANCE_BYTES),
    check(
      'navigation, links, forms, layouts, error boundaries and fetchers, first-load gzip (bytes)',
      home === undefined || withoutNavigation === undefined ? undefined : home.gzipBytes - withoutNavigation.gzipBytes,
      'at most',
      NAVIGATION_ALLOWANCE_BYTES,
    ),
    check('status pages first-load JS (bytes)', statusPages.length === 0 ? undefined : Math.max(...statusPages.map((page) => page.bytes)), 'at most', 0),
    check('Lighthouse / FCP, mobile (ms)', roundedMs(lighthouse?.metrics.fcpMs), 'at most', 750),
    check('Lighthouse / LCP, mobile (ms)', roundedMs(lighthouse?.metrics.lcpMs), 'at most', 800),
    ...ALL_CATEGORIES.map((category) => check(`Lighthouse / ${CATEGORY_LABELS[category]} score`, lighthouse?.scores[category] ?? undefined, 'at least', 100)),
  ];
}
