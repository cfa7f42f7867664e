/**
 * A plain object (`{}` or `Object.create(null)`): the only objects whose properties the page
 * data's walks look into, on the server (deferred values) and in the browser (their outcomes).
 */
export function isPlainObject(value: object): value is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
