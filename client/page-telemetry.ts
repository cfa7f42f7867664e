import { CLIENT_ERRORS_ENDPOINT, VITALS_ENDPOINT, type ClientErrorReport, type PageTelemetry } from '../shared/protocol/telemetry.ts';
import { clientErrorReport } from './client-error-report.ts';
import { reportWebVitals } from './report-web-vitals.ts';
import { sendReport } from './send-beacon.ts';

/** What a page's error reports are made with: the kind of error and the error. */
export type ReportError = (kind: ClientErrorReport['kind'], error: unknown) => void;

/**
 * What a page reports when telemetry is on (docs/observability.md): its web vitals, from now
 * on, and its errors, through the function returned. A chunk of its own, fetched only by pages
 * whose data carries telemetry settings, so a page without them ships none of it. It is handed
 * `digestOf` rather than importing it: the bundler would move a module this chunk and the first
 * load both import into a shared chunk, which every first load would fetch too.
 */
export function startTelemetry(settings: PageTelemetry, digestOf: (error: unknown) => string | undefined): ReportError {
  reportWebVitals(settings, (report) => sendReport(VITALS_ENDPOINT, report));
  return (kind, error) => sendReport(CLIENT_ERRORS_ENDPOINT, clientErrorReport(settings, kind, error, digestOf(error)));
}
