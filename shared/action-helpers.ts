/**
 * Control flow for a route's `action` (docs/building-pages.md, "Forms and actions"). Server-only
 * in practice: page modules import them beside `action`, which never ships to the browser.
 */

/**
 * Thrown by `redirect()`: the server answers 303 See Other with `Location`. Not an error of the
 * app: it never reaches the log unless it is thrown where no action runs (in `load`, say), where
 * it ends in the 500 page like any other throw.
 */
export class ActionRedirect extends Error {
  override readonly name = 'ActionRedirect';
  /** As the action gave it; the server resolves it against the request's URL. */
  readonly location: string;

  constructor(location: string) {
    super(`redirect() to ${location} outside an action`);
    this.location = location;
  }
}

export function isActionRedirect(value: unknown): value is ActionRedirect {
  return value instanceof ActionRedirect;
}

/**
 * Ends the action with 303 See Other to `location`: a path of this site (`/orders/42`), or a
 * path relative to the posted URL. An absolute URL is accepted only when it names this site's
 * own origin. Refused with the 500 page and one error line: any other origin
 * (`https://evil.example/`, `//evil.example`, `/\evil.example`), and a location whose path,
 * once resolved, begins with `//` (`/.//evil.example`, `/%2e//evil.example`), which a browser
 * would read as another host. So a `?next=` parameter cannot turn an action into an open
 * redirect (docs/security.md, "No open redirects").
 */
export function redirect(location: string): never {
  throw new ActionRedirect(location);
}

/** The marker `invalid()` returns: the page is shown again with 422 and `{ errors, values }`. */
export class InvalidSubmission<Errors = unknown, Values = unknown> {
  readonly errors: Errors;
  readonly values: Values | undefined;

  constructor(errors: Errors, values: Values | undefined) {
    this.errors = errors;
    this.values = values;
  }
}

export function isInvalidSubmission(value: unknown): value is InvalidSubmission {
  return value instanceof InvalidSubmission;
}

/** What a page receives as `actionData` after `invalid(errors, values)`. */
export interface InvalidData<Errors = unknown, Values = unknown> {
  readonly errors: Errors;
  readonly values: Values | undefined;
}

/**
 * Returned by an action whose submission does not hold: the page is shown again with status
 * 422 Unprocessable Entity, and `actionData` is `{ errors, values }`. `values` is what the form
 * should show again (leave out what must not be echoed, such as a password); omitted, it is
 * `undefined`.
 */
export function invalid<Errors, Values = undefined>(errors: Errors, values?: Values): InvalidSubmission<Errors, Values> {
  return new InvalidSubmission(errors, values);
}
