import { pageStatusMessage as statusMessage } from '../wording/page-status-messages.ts';

/** An error that carries the HTTP status it should end in. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;

  constructor(status: number, message?: string, options?: ErrorOptions) {
    super(message ?? statusMessage(status), options);
    this.status = status;
  }
}

export function isHttpError(value: unknown): value is HttpError {
  return value instanceof HttpError;
}

/**
 * The status a server-side failure is answered with: 503 when the app said so with
 * `serviceUnavailable()` (a database that cannot answer: come back, or try another instance),
 * 500 for everything else, whatever it carries. Both are logged once with their digest.
 */
export function keptServerStatus(status: number): 500 | 503 {
  return status === 503 ? 503 : 500;
}
