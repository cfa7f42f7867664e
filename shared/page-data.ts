import type { RouteParams } from './route-definition.ts';
import type { TelemetrySettings } from './telemetry.ts';

/** The id of the JSON script that carries a page's data from server to client. */
export const PAGE_DATA_ELEMENT_ID = '__PAGE_DATA__';

export interface EmbeddedPageData {
  readonly data: unknown;
  readonly params: RouteParams;
  /** Present when first-party web vitals and error reports are switched on. */
  readonly telemetry?: TelemetrySettings;
  /** Set by a development server: the client error page may show message and stack. */
  readonly development?: true;
}
