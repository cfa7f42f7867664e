/**
 * Control flow for a route's `action` (docs/building-an-app.md, "Forms and actions"). Server-only
 * in practice: page modules import them beside `action`, which never ships to the browser.
 */

/**
 * Ends the action with 303 See Other to `location` (or the status `init` gives), with the
 * headers `init` gives: shared/api/answers.ts, where `load`'s redirects come from too.
 */
export { redirect } from './answers.ts';

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
