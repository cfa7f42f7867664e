/** An origin no site has, to resolve a value against and see whether it stays there. */
const NOWHERE = 'http://site.invalid';

/**
 * Whether `value` is a path on this site, as a browser reads it: it begins with one slash and
 * names no other host. `//cdn.example/x.js` does, and so do `/\cdn.example/x.js` and
 * `/\t/cdn.example` (browsers read a backslash as a slash and drop tabs and newlines), which a
 * test of the first characters alone would take for paths.
 */
export function isSitePath(value: string): boolean {
  return value.startsWith('/') && URL.parse(value, NOWHERE)?.origin === NOWHERE;
}
