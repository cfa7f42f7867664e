/** The fields of a logged error (server-error-log.ts, error-hook.ts), chosen so that nothing it carries besides reaches the log. */

export interface ErrorFields {
  /** What was thrown: an object's class (`InventoryError`, whatever its `name`), or a primitive's type (`string`). */
  readonly type: string;
  readonly name: string;
  readonly message: string;
  readonly stack: string | undefined;
  /** A status the error carries (http-errors' `createError(404)`): not a status helper's, so the answer was 500. */
  readonly status?: number;
}

function typeOf(error: unknown): string {
  if (typeof error !== 'object' || error === null) return error === null ? 'null' : typeof error;
  const maker: unknown = error.constructor;
  return typeof maker === 'function' && maker.name !== '' ? maker.name : 'Object';
}

/**
 * Fetch's `Headers` refuses a value with an error that quotes it whole
 * (`Headers.append: "sid=…\r\n" is an invalid header value.`): a route that builds its own
 * `Headers` or `Response` throws that as it is, and the value may be a cookie or a token.
 */
const QUOTED_HEADER_VALUE = /^([^"]*): "[\s\S]*" is an invalid header value\.$/;

/** The message and stack of an error, with a header value Fetch quoted in them left out; the header is named where Fetch names it. */
function withoutHeaderValue(message: string, stack: string | undefined): { readonly message: string; readonly stack: string | undefined } {
  const quoted = QUOTED_HEADER_VALUE.exec(message);
  if (quoted === null) return { message, stack };
  const said = `${quoted[1]}: a header value (left out of the log) is an invalid header value.`;
  return { message: said, stack: stack?.replace(message, said) };
}

/**
 * The fields of the line's `err`, chosen here: never the error's other properties, which may hold
 * what must not be logged (a client library's error carrying its request's headers).
 */
export function errorFields(error: unknown): ErrorFields {
  const type = typeOf(error);
  if (error instanceof Error) {
    const status = 'status' in error && typeof error.status === 'number' ? { status: error.status } : {};
    return { type, name: error.name, ...withoutHeaderValue(error.message, error.stack), ...status };
  }
  return { type, name: 'NonError', message: String(error), stack: undefined };
}
