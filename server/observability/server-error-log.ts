import type { Request } from 'express';
import { createDigest, fingerprintError } from './digest.ts';
import { requestPath } from './request-path.ts';

/**
 * Every error is logged once: the digest given to the first report is reused when the same
 * error surfaces again (React's onError, then onShellError, then Express's handler). Objects
 * are remembered here; a thrown primitive (a string) cannot be, so the request remembers
 * the last one it logged.
 */
const digests = new WeakMap<object, string>();

interface ErrorFields {
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
function errorFields(error: unknown): ErrorFields {
  const type = typeOf(error);
  if (error instanceof Error) {
    const status = 'status' in error && typeof error.status === 'number' ? { status: error.status } : {};
    return { type, name: error.name, ...withoutHeaderValue(error.message, error.stack), ...status };
  }
  return { type, name: 'NonError', message: String(error), stack: undefined };
}

/** Whether this error has had its `error` line already: whatever it is, it was taken for a server error. */
export function isLoggedError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && digests.has(error);
}

/**
 * Writes the one `error` line of docs/status-pages.md (digest, request id via the child
 * logger, method, path, route pattern, error name, message, stack, fingerprint) and returns
 * the digest.
 */
export function logServerError(req: Request, error: unknown): string {
  const isObject = typeof error === 'object' && error !== null;
  const locals = req.res?.locals;
  const remembered = locals?.loggedPrimitive;
  const known = isObject ? digests.get(error) : remembered !== undefined && remembered.error === error ? remembered.digest : undefined;
  if (known !== undefined) return known;

  const digest = createDigest();
  if (isObject) digests.set(error, digest);
  else if (locals !== undefined) locals.loggedPrimitive = { error, digest };
  const fields = errorFields(error);
  const { name, message, stack } = fields;
  req.log.error(
    {
      digest,
      fingerprint: fingerprintError(name, message, stack),
      method: req.method,
      path: requestPath(req),
      route: req.res?.locals.routePattern ?? null,
      err: fields,
    },
    'server error',
  );
  return digest;
}
