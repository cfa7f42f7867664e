import type { ClientErrorReport, PageTelemetry } from '../shared/protocol/telemetry.ts';

const MAX_MESSAGE = 1_024;
const MAX_STACK = 4_096;

/** What the server's log needs to find a visitor's error: name, message, digest, ids. */
export function clientErrorReport(settings: PageTelemetry, kind: ClientErrorReport['kind'], error: unknown, digest: string | undefined): ClientErrorReport {
  const isError = error instanceof Error;
  return {
    kind,
    name: (isError ? error.name : 'NonError').slice(0, 128) || 'Error',
    message: (isError ? error.message : String(error)).slice(0, MAX_MESSAGE),
    route: settings.route,
    requestId: settings.requestId,
    ...(isError && error.stack !== undefined ? { stack: error.stack.slice(0, MAX_STACK) } : {}),
    ...(digest === undefined ? {} : { digest }),
  };
}
