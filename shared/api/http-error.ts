import { statusMessage } from '../wording/status-messages.ts';

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
