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

/** Where a value sits in its container: a property, an index, or a place in a Map or a Set. */
export type PathKey = string | number | { readonly mapValueOf: unknown } | 'map key' | 'set item';

/**
 * The path of the value at `key` in the container at `parent`: `parent.key`, `parent["a b"]`,
 * `parent[2]`, `parent.get("k")`; `key` alone at the root (`''`). Made only when needed (an
 * UnsendableValueError, a promise's place): the walk passes the parent's path and the key.
 */
export function pathOf(parent: string, key: PathKey): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  if (key === 'map key') return `${parent} (a key)`;
  if (key === 'set item') return `${parent} (an item)`;
  if (typeof key === 'object') {
    const { mapValueOf } = key;
    return typeof mapValueOf === 'string' || typeof mapValueOf === 'number' ? `${parent}.get(${JSON.stringify(mapValueOf)})` : `${parent}.get(…)`;
  }
  if (parent === '') return key;
  return IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
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
  const made: unknown = typeof proto === 'object' && proto !== null ? Reflect.get(proto, 'constructor') : undefined;
  const name = typeof made === 'function' ? made.name : '';
  return name === '' ? 'an object with a prototype of its own' : `an instance of ${name}`;
}

/**
 * What `value` is when seroval cannot carry it as it is (`a function`, `an instance of Money`);
 * undefined when it can. Asked of what the walk does not look into: not a plain object,
 * array, Map, Set, error or promise.
 */
export function unsendable(value: unknown): string | undefined {
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value !== 'object' || value === null || carriedAsIs(value)) return undefined;
  return describe(value);
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
