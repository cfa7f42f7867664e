import { HttpError } from '../../shared/http-error.ts';

/**
 * Turns anything thrown into an HttpError. Errors from Express's own stack (body parsers,
 * `send`) carry a 4xx `status` with `expose: true`; those keep their status. Anything else is
 * a 500 that keeps the original as `cause` for the log.
 */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (typeof error === 'object' && error !== null && 'status' in error && 'expose' in error) {
    const { status, expose } = error;
    if (expose === true && typeof status === 'number' && status >= 400 && status < 500) {
      return new HttpError(status, undefined, { cause: error });
    }
  }
  return new HttpError(500, undefined, { cause: error });
}
