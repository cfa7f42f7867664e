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
