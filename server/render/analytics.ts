import { isSitePath } from '../http/site-path.ts';

/**
 * docs/observability.md: the hosting provider's page-view and performance scripts, each off unless
 * configured. `true` loads the provider's same-origin default path; a string loads that URL.
 */
export interface AnalyticsOptions {
  readonly pageViews?: boolean | string;
  readonly speedInsights?: boolean | string;
}

export const DEFAULT_PAGE_VIEWS_SCRIPT = '/_vercel/insights/script.js';
export const DEFAULT_SPEED_INSIGHTS_SCRIPT = '/_vercel/speed-insights/script.js';

export interface AnalyticsScripts {
  /** `src` of each enabled script, in order; empty when analytics is off. */
  readonly sources: readonly string[];
  /** Origins the CSP must grant for script loading and for the scripts' beacons. */
  readonly origins: readonly string[];
}

function resolveSource(setting: boolean | string | undefined, fallback: string): string | undefined {
  if (setting === undefined || setting === false) return undefined;
  return setting === true ? fallback : setting;
}

/** Cross-origin sources need their origin in the CSP; same-origin paths are covered by 'self'. */
function originOf(source: string): string | undefined {
  if (isSitePath(source)) return undefined;
  return new URL(source).origin;
}

export function resolveAnalytics(options: AnalyticsOptions = {}): AnalyticsScripts {
  const sources = [resolveSource(options.pageViews, DEFAULT_PAGE_VIEWS_SCRIPT), resolveSource(options.speedInsights, DEFAULT_SPEED_INSIGHTS_SCRIPT)].filter(
    (source) => source !== undefined,
  );
  const origins = [...new Set(sources.map(originOf).filter((origin) => origin !== undefined))];
  return { sources, origins };
}
