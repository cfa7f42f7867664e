/**
 * What of a page's data can be sent to the browser (server/render/deferred-data.ts checks each
 * value once, before seroval writes it): seroval throws on a value it cannot carry, in the
 * middle of the answer and without saying where the value was; checked first, the page can
 * still answer with the 500 page, or reject just that deferred value, naming where it is.
 */

/** A value in the page's data that the browser cannot receive; its message names where it is. */
export class UnsendableValueError extends Error {
  override readonly name = 'UnsendableValueError';
  /** Where in the page's data the value is, e.g. `data.items[2].price`. */
  readonly path: string;

  constructor(path: string, what: string) {
    super(`${path}: ${what} cannot be sent to the browser`);
    this.path = path;
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `path.key`, or `path["key"]` for a key that is not an identifier; `key` alone at the root (`''`). */
export function propertyPath(path: string, key: string): string {
  if (path === '') return key;
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** `path.get(key)` for a Map's value. */
export function mapEntryPath(path: string, key: unknown): string {
  return typeof key === 'string' || typeof key === 'number' ? `${path}.get(${JSON.stringify(key)})` : `${path}.get(…)`;
}

/**
 * Objects seroval writes as they are (besides plain objects, arrays, Maps, Sets, errors and
 * promises, which the walk looks into): built-ins the browser has too. A class of the app's
 * own would reach the browser as something else, or stop seroval.
 */
function carriedAsIs(value: object): boolean {
  return value instanceof Date || value instanceof RegExp || value instanceof URL || value instanceof ArrayBuffer || ArrayBuffer.isView(value);
}

function describe(value: object): string {
  const proto: unknown = Object.getPrototypeOf(value);
  const constructor: unknown = typeof proto === 'object' && proto !== null ? Reflect.get(proto, 'constructor') : undefined;
  const name = typeof constructor === 'function' ? constructor.name : '';
  return name === '' ? 'an object with a prototype of its own' : `an instance of ${name}`;
}

/**
 * Throws UnsendableValueError unless seroval can carry `value` as it is. Called for what the
 * walk does not look into: not a primitive, plain object, array, Map, Set, error or promise.
 */
export function checkSendable(value: unknown, path: string): void {
  if (typeof value === 'function') throw new UnsendableValueError(path, 'a function');
  if (typeof value === 'symbol') throw new UnsendableValueError(path, 'a symbol');
  if (typeof value !== 'object' || value === null || carriedAsIs(value)) return;
  throw new UnsendableValueError(path, describe(value));
}

/** The built-in error classes seroval rebuilds by name; any other error becomes an `Error`. */
const ERROR_CLASSES = [EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError] as const;

/**
 * An error as the browser may see it: in production its class, name and message only (its
 * stack names the server's files, and its own fields may hold anything, a query, a
 * connection string); in development its stack too, and its own fields as `field` gives them.
 */
export function errorForBrowser(error: Error, development: boolean, field: (key: string, value: unknown) => unknown): Error {
  const Class = ERROR_CLASSES.find((candidate) => error instanceof candidate) ?? Error;
  const copy = new Class(String(error.message));
  if (error.name !== copy.name) Object.defineProperty(copy, 'name', { value: String(error.name), writable: true, configurable: true });
  if (!development) {
    // A fresh error's stack would name this file: the browser makes its own.
    Reflect.deleteProperty(copy, 'stack');
    return copy;
  }
  copy.stack = error.stack;
  for (const key of Object.getOwnPropertyNames(error)) {
    if (key === 'name' || key === 'message' || key === 'stack') continue;
    Object.defineProperty(copy, key, { value: field(key, Reflect.get(error, key)), writable: true, enumerable: true, configurable: true });
  }
  return copy;
}
