import { digestOf } from '../shared/views/error-boundary.tsx';
import { CLIENT_ERRORS_ENDPOINT, type ClientErrorReport, type PageTelemetry } from '../shared/protocol/telemetry.ts';
import { sendReport } from './send-beacon.ts';

const MAX_MESSAGE = 1_024;
const MAX_STACK = 4_096;

/** Sends what the server's log needs to find a visitor's error: name, message, digest, ids. */
export function reportClientError(settings: PageTelemetry, kind: ClientErrorReport['kind'], error: unknown): void {
  const isError = error instanceof Error;
  const digest = digestOf(error);
  const report: ClientErrorReport = {
    kind,
    name: (isError ? error.name : 'NonError').slice(0, 128) || 'Error',
    message: (isError ? error.message : String(error)).slice(0, MAX_MESSAGE),
    route: settings.route,
    requestId: settings.requestId,
    ...(isError && error.stack !== undefined ? { stack: error.stack.slice(0, MAX_STACK) } : {}),
    ...(digest === undefined ? {} : { digest }),
  };
  sendReport(CLIENT_ERRORS_ENDPOINT, report);
}
