import { createContext, runInContext } from 'node:vm';

/** The NDJSON lines of a page's data for an in-place navigation, parsed. */
export function navigationLines(body: string): unknown[] {
  return body
    .split('\n')
    .filter((line) => line !== '')
    .map((line): unknown => JSON.parse(line));
}

/**
 * Runs the scripts of a navigation's data lines (every line after the first) as the browser's
 * navigation runtime does, in a fresh context, and returns the page data they built in `scope`.
 */
export function navigationDataOf(body: string, scope: string): unknown {
  const context = createContext({ URL, addEventListener: () => undefined });
  runInContext('var self = globalThis;', context);
  for (const script of navigationLines(body).slice(1)) {
    if (typeof script !== 'string') throw new Error(`a data line that is not a script: ${JSON.stringify(script)}`);
    runInContext(script, context);
  }
  const scopes: unknown = runInContext('self.$R', context);
  if (typeof scopes !== 'object' || scopes === null) throw new Error('the answer built no data');
  const values: unknown = Reflect.get(scopes, scope);
  return Array.isArray(values) ? values[0] : undefined;
}
