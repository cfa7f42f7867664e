import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { CHROMIUM_FLAGS, chromiumPath } from '../../test/support/system-components.ts';

/**
 * Lighthouse against the machine's Chromium (Debian's, or CHROMIUM_PATH): the bench's Lighthouse
 * section and test/browser/lighthouse.test.ts both run it through here. No browser is ever
 * downloaded: Chromium is started by hand with a debugging port and Lighthouse connects to it.
 */

/** Headless, with the flags of every Chromium here, and a fresh profile every time. */
export const LIGHTHOUSE_CHROMIUM_FLAGS: readonly string[] = ['--headless=new', ...CHROMIUM_FLAGS];

export interface DebuggableChromium {
  /** The DevTools port on 127.0.0.1, for Lighthouse's `port` flag. */
  readonly port: number;
  readonly child: ChildProcess;
  /** SIGTERM, SIGKILL after 5 s, then the temporary profile is removed. */
  close(): Promise<void>;
}

const START_DEADLINE_MS = 30_000;
const STOP_GRACE_MS = 5_000;

/** Starts Chromium with `--remote-debugging-port=0` and reads the port it chose from its stderr. */
export async function launchDebuggableChromium(executable: string = chromiumPath()): Promise<DebuggableChromium> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'lighthouse-chromium-'));
  const child = spawn(
    executable,
    [...LIGHTHOUSE_CHROMIUM_FLAGS, `--user-data-dir=${userDataDir}`, '--remote-debugging-address=127.0.0.1', '--remote-debugging-port=0', 'about:blank'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  async function close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    }
    await exited;
    clearTimeout(timer);
    rmSync(userDataDir, { recursive: true, force: true });
  }

  let stderr = '';
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`Chromium (${executable}) gave no DevTools port within ${START_DEADLINE_MS} ms:\n${stderr.slice(-2_000)}`)),
        START_DEADLINE_MS,
      );
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`Chromium (${executable}) exited (${code ?? signal}) before listening:\n${stderr.slice(-2_000)}`));
      });
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => {
        // Keeps draining stderr for the browser's life, so it never blocks on a full pipe.
        if (stderr.length < 64_000) stderr += text;
        const listening = /DevTools listening on ws:\/\/[^/\s]+:(\d+)\//.exec(stderr);
        if (listening?.[1] !== undefined) {
          clearTimeout(timer);
          resolve(Number(listening[1]));
        }
      });
    });
    return { port, child, close };
  } catch (error) {
    await close();
    throw error;
  }
}

export type CategoryId = 'performance' | 'accessibility' | 'best-practices' | 'seo';
export const ALL_CATEGORIES: readonly CategoryId[] = ['performance', 'accessibility', 'best-practices', 'seo'];
export const CATEGORY_LABELS: Readonly<Record<CategoryId, string>> = {
  performance: 'performance',
  accessibility: 'accessibility',
  'best-practices': 'best practices',
  seo: 'SEO',
};

/** An audit that cost its category points: scored below 1, or that could not run. */
export interface FailingAudit {
  readonly category: CategoryId;
  readonly id: string;
  readonly title: string;
  /** 0 to 1; null when the audit errored. */
  readonly score: number | null;
  readonly displayValue?: string;
  readonly errorMessage?: string;
}

/** Lab metrics of the performance category (mobile, simulated throttling). */
export interface LighthouseMetrics {
  readonly fcpMs: number | undefined;
  readonly lcpMs: number | undefined;
  readonly tbtMs: number | undefined;
  readonly cls: number | undefined;
  readonly speedIndexMs: number | undefined;
}

export interface LighthouseSummary {
  readonly url: string;
  readonly lighthouseVersion: string;
  /** The browser's own user agent (its version), not the emulated one. */
  readonly hostUserAgent: string;
  readonly formFactor: string;
  readonly throttlingMethod: string;
  /** What the simulation assumed: round trip, bandwidth, CPU slowdown. */
  readonly throttling: { readonly rttMs?: number; readonly throughputKbps?: number; readonly cpuSlowdownMultiplier?: number };
  /** 0 to 100 per category run; null when Lighthouse could not score it. */
  readonly scores: Partial<Record<CategoryId, number | null>>;
  /** Present when the performance category ran. */
  readonly metrics: LighthouseMetrics | undefined;
  readonly failing: readonly FailingAudit[];
  readonly runWarnings: readonly string[];
}

export interface LighthouseRunOptions {
  /** The DevTools port of a Chromium from launchDebuggableChromium(). */
  readonly port: number;
  readonly categories: readonly CategoryId[];
}

/**
 * One Lighthouse navigation of `url`: mobile form factor and screen, simulated throttling (the
 * defaults of Lighthouse's mobile configuration, stated here so a change of default shows).
 * Throws when Lighthouse itself failed (a 4xx/5xx page, no paint, a crash).
 */
export async function runLighthouse(url: string, { port, categories }: LighthouseRunOptions): Promise<LighthouseSummary> {
  const result = await lighthouse(url, {
    port,
    hostname: '127.0.0.1',
    logLevel: 'error',
    output: 'json',
    onlyCategories: [...categories],
    formFactor: 'mobile',
    throttlingMethod: 'simulate',
  });
  if (result === undefined) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError !== undefined) throw new Error(`Lighthouse could not audit ${url}: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);

  const scores: Partial<Record<CategoryId, number | null>> = {};
  const failing: FailingAudit[] = [];
  for (const category of categories) {
    const scored = lhr.categories[category];
    if (scored === undefined) continue;
    scores[category] = scored.score === null ? null : Math.round(scored.score * 100);
    for (const ref of scored.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (audit === undefined || ref.weight === 0) continue;
      const errored = audit.scoreDisplayMode === 'error';
      if (!errored && (audit.score === null || audit.score >= 1)) continue;
      failing.push({
        category,
        id: audit.id,
        title: audit.title,
        score: audit.score,
        ...(audit.displayValue === undefined ? {} : { displayValue: audit.displayValue }),
        ...(audit.errorMessage === undefined ? {} : { errorMessage: audit.errorMessage }),
      });
    }
  }
  const numeric = (id: string) => lhr.audits[id]?.numericValue;
  return {
    url,
    lighthouseVersion: lhr.lighthouseVersion,
    hostUserAgent: lhr.environment.hostUserAgent,
    formFactor: lhr.configSettings.formFactor,
    throttlingMethod: lhr.configSettings.throttlingMethod,
    throttling: {
      rttMs: lhr.configSettings.throttling.rttMs,
      throughputKbps: lhr.configSettings.throttling.throughputKbps,
      cpuSlowdownMultiplier: lhr.configSettings.throttling.cpuSlowdownMultiplier,
    },
    scores,
    metrics: categories.includes('performance')
      ? {
          fcpMs: numeric('first-contentful-paint'),
          lcpMs: numeric('largest-contentful-paint'),
          tbtMs: numeric('total-blocking-time'),
          cls: numeric('cumulative-layout-shift'),
          speedIndexMs: numeric('speed-index'),
        }
      : undefined,
    failing,
    runWarnings: lhr.runWarnings,
  };
}

/** One line per failing audit: `category  id: title (display value)`. */
export function describeFailingAudits(failing: readonly FailingAudit[]): string {
  return failing
    .map((audit) => {
      const detail = [audit.displayValue, audit.errorMessage, audit.score === null ? 'errored' : `score ${audit.score}`]
        .filter((part) => part !== undefined && part !== '')
        .join('; ');
      return `${audit.category}  ${audit.id}: ${audit.title} (${detail})`;
    })
    .join('\n');
}
