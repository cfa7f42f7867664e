import type { RouteParams } from './route-definition.ts';
import type { TelemetrySettings } from './telemetry.ts';

export interface EmbeddedPageData {
  readonly data: unknown;
  readonly params: RouteParams;
  /** Present when first-party web vitals and error reports are switched on. */
  readonly telemetry?: TelemetrySettings;
  /** Set by a development server: the client error page may show message and stack. */
  readonly development?: true;
}

/** The seroval scope (`self.$R[scope]`) the server's data scripts write the page's data into. */
export const PAGE_DATA_SCOPE = 'page';

/** The name a deferred value's rejection carries on both sides (server/render/deferred-data.ts). */
export const DEFERRED_DATA_ERROR = 'DeferredDataError';
