import { HttpError } from './http-error.ts';

/**
 * Control flow for pages: call these in a route's `load` or while the shell renders, and the
 * response ends in that status page instead of the route's content.
 */
export function notFound(): never {
  throw new HttpError(404);
}

export function unauthorized(): never {
  throw new HttpError(401);
}

export function forbidden(): never {
  throw new HttpError(403);
}

/**
 * The app cannot answer now, through no fault of the request: its database is down or slower
 * than its timeout (docs/status-pages.md#service-unavailable). The answer is the 503 status
 * page with a digest, and the log has one error line with that digest whose `err` is `cause`
 * (the app's own typed error), so a client or balancer knows to come back or go elsewhere.
 */
export function serviceUnavailable(cause?: unknown): never {
  throw new HttpError(503, undefined, cause === undefined ? undefined : { cause });
}
