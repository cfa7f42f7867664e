import { HttpError } from '../../shared/api/http-error.ts';

/**
 * Express's body parsers (body-parser, through `express.json` and `express.urlencoded`) give
 * each of their errors a `type` string, a 4xx `status` and `expose: true` (body-parser's
 * README, "Errors"): a body that does not parse, a charset or encoding they do not read, too
 * many fields. Those are the client's errors, and keep their status.
 */
function isBodyParserRefusal(error: object): error is { readonly status: number } {
  if (!('status' in error && 'expose' in error && 'type' in error)) return false;
  const { status, expose, type } = error;
  return expose === true && typeof type === 'string' && typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * Turns anything thrown into an HttpError (docs/status-pages.md, "Which errors make a status
 * page"). An HttpError (a status helper's, or one of the platform's own refusals) and a body
 * parser's refusal keep their status. Anything else is a 500 that keeps the original as `cause`
 * for the log, whatever `status` it carries: http-errors' `createError(404)` thrown in `load`,
 * or an HTTP client's error for an upstream's 404, is the server's failure, not the visitor's
 * (only the status helpers say a page is missing or forbidden).
 */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (typeof error === 'object' && error !== null && isBodyParserRefusal(error)) {
    return new HttpError(error.status, undefined, { cause: error });
  }
  return new HttpError(500, undefined, { cause: error });
}
