import { httpGet } from '../lib/http-get.ts';
import { track } from './child-registry.ts';
import { ALL_CATEGORIES, launchDebuggableChromium, runLighthouse, type CategoryId, type FailingAudit, type LighthouseMetrics, type LighthouseSummary } from './lighthouse.ts';
import type { BenchServer } from './spawn-bench-server.ts';

/** The page the bench audits: the product's home, the one page it ships. */
export const LIGHTHOUSE_PATH = '/';
/** Requests to `/` before the first audit, so Lighthouse meets a warm instance, as visitors do. */
const WARM_UP_REQUESTS = 50;

export interface LighthouseRunFigures {
  readonly metrics: LighthouseMetrics;
  readonly scores: Partial<Record<CategoryId, number | null>>;
}

/** The bench's Lighthouse section: medians over the runs, every run beside them. */
export interface LighthouseReport {
  readonly path: string;
  readonly lighthouseVersion: string;
  /** The browser's own user agent, which names its version. */
  readonly browser: string;
  readonly formFactor: string;
  readonly throttlingMethod: string;
  readonly throttling: LighthouseSummary['throttling'];
  readonly runs: readonly LighthouseRunFigures[];
  /** Each figure's median over the runs (the mean of the middle two for an even count). */
  readonly median: LighthouseRunFigures;
  /** Audits that cost a category points in any run, with how many runs they did. */
  readonly failingAudits: readonly (FailingAudit & { readonly runs: number })[];
  readonly runWarnings: readonly string[];
}

function median(values: readonly (number | null | undefined)[]): number | undefined {
  const sorted = values.filter((value): value is number => typeof value === 'number' && !Number.isNaN(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function summarize(summaries: readonly LighthouseSummary[]): LighthouseReport {
  const first = summaries[0];
  if (first === undefined) throw new Error('no Lighthouse run');
  const runs: LighthouseRunFigures[] = summaries.map((summary) => ({
    metrics: summary.metrics ?? { fcpMs: undefined, lcpMs: undefined, tbtMs: undefined, cls: undefined, speedIndexMs: undefined },
    scores: summary.scores,
  }));
  const metric = (key: keyof LighthouseMetrics) => median(runs.map((run) => run.metrics[key]));
  const failing = new Map<string, FailingAudit & { runs: number }>();
  for (const audit of summaries.flatMap((summary) => summary.failing)) {
    const key = `${audit.category} ${audit.id}`;
    const seen = failing.get(key);
    failing.set(key, { ...audit, runs: (seen?.runs ?? 0) + 1 });
  }
  return {
    path: LIGHTHOUSE_PATH,
    lighthouseVersion: first.lighthouseVersion,
    browser: /HeadlessChrome\/\S+|Chrome\/\S+/.exec(first.hostUserAgent)?.[0] ?? first.hostUserAgent,
    formFactor: first.formFactor,
    throttlingMethod: first.throttlingMethod,
    throttling: first.throttling,
    runs,
    median: {
      metrics: { fcpMs: metric('fcpMs'), lcpMs: metric('lcpMs'), tbtMs: metric('tbtMs'), cls: metric('cls'), speedIndexMs: metric('speedIndexMs') },
      scores: Object.fromEntries(ALL_CATEGORIES.map((category) => [category, median(runs.map((run) => run.scores[category])) ?? null])),
    },
    failingAudits: [...failing.values()],
    runWarnings: [...new Set(summaries.flatMap((summary) => summary.runWarnings))],
  };
}

/**
 * Lighthouse, mobile with simulated throttling, all four categories, `runs` times on `/` of a
 * running product, in the machine's Chromium (one browser for all runs; Lighthouse clears the
 * origin's cache and storage before each). The server is warmed first.
 */
export async function measureLighthouse(product: BenchServer, runs: number, progress: (line: string) => void): Promise<LighthouseReport> {
  const url = `${product.origin}${LIGHTHOUSE_PATH}`;
  for (let request = 0; request < WARM_UP_REQUESTS; request += 1) {
    const { status } = await httpGet(url, 10_000);
    // Lighthouse refuses 4xx/5xx pages; say which page and status rather than its error code.
    if (status !== 200) throw new Error(`Lighthouse needs a 200 page: GET ${LIGHTHOUSE_PATH} answered ${status}`);
  }
  const chromium = await launchDebuggableChromium();
  track(chromium.child);
  try {
    const summaries: LighthouseSummary[] = [];
    for (let run = 1; run <= runs; run += 1) {
      const summary = await runLighthouse(url, { port: chromium.port, categories: ALL_CATEGORIES });
      summaries.push(summary);
      const { metrics, scores } = summary;
      progress(
        `lighthouse    run ${run}  FCP ${Math.round(metrics?.fcpMs ?? Number.NaN)} ms  LCP ${Math.round(metrics?.lcpMs ?? Number.NaN)} ms  TBT ${Math.round(metrics?.tbtMs ?? Number.NaN)} ms  CLS ${metrics?.cls?.toFixed(3) ?? '-'}  scores ${ALL_CATEGORIES.map((category) => `${category} ${scores[category] ?? '-'}`).join(', ')}`,
      );
    }
    return summarize(summaries);
  } finally {
    await chromium.close();
  }
}
