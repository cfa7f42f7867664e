/**
 * First-party telemetry (docs/observability.md): what the browser sends and where. Shared so client and
 * server agree on names and limits.
 */
/** The folder of the telemetry endpoints. */
export const TELEMETRY_PATH = '/_telemetry/';
export const VITALS_ENDPOINT = `${TELEMETRY_PATH}vitals`;
export const CLIENT_ERRORS_ENDPOINT = `${TELEMETRY_PATH}errors`;

/** Payloads are tiny; anything larger is not ours. */
export const TELEMETRY_BODY_LIMIT_BYTES = 4_096;

export const VITAL_NAMES = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const;
export type VitalName = (typeof VITAL_NAMES)[number];

export const VITAL_RATINGS = ['good', 'needs-improvement', 'poor'] as const;
export type VitalRating = (typeof VITAL_RATINGS)[number];

export interface VitalReport {
  readonly name: VitalName;
  readonly value: number;
  readonly rating: VitalRating;
  /** web-vitals' id of this page load's metric. */
  readonly id: string;
  /** The route pattern the page was rendered for, never the raw path. */
  readonly route: string;
  readonly requestId: string;
}

export interface ClientErrorReport {
  readonly kind: 'uncaught' | 'recoverable';
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
  /** The server's digest when the error came from a boundary that failed during SSR. */
  readonly digest?: string;
  readonly route: string;
  readonly requestId: string;
}

/** What the server tells the page about telemetry, embedded with the page data. */
export interface PageTelemetry {
  readonly route: string;
  readonly requestId: string;
}
