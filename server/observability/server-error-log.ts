import type { Request } from 'express';
import { createDigest, fingerprintError } from './digest.ts';
import { errorFields } from './error-fields.ts';
import { serverErrorReporter } from './error-hook.ts';
import { requestPath } from './request-path.ts';

/**
 * Every error is logged once: the digest given to the first report is reused when the same
 * error surfaces again (React's onError, then onShellError, then Express's handler). Objects
 * are remembered here; a thrown primitive (a string) cannot be, so the request remembers
 * the last one it logged.
 */
const digests = new WeakMap<object, string>();

/** Whether this error has had its `error` line already: whatever it is, it was taken for a server error. */
export function isLoggedError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && digests.has(error);
}

/**
 * Writes the one `error` line of docs/status-pages.md (digest, request id via the child
 * logger, method, path, route pattern, error name, message, stack, fingerprint) and returns
 * the digest. The app's `onError`, if any, is then given the error, once.
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
  // After the line, so the app's report and the log agree on the digest (error-hook.ts).
  serverErrorReporter(req)?.(req, error, digest);
  return digest;
}
