import { parse, type Token } from 'path-to-regexp';

/** A path's parameters by name: true for one every match has, false for one inside an optional group `{…}`. */
export type ParamSet = ReadonlyMap<string, boolean>;

function collect(tokens: readonly Token[], required: boolean, into: Map<string, boolean>): void {
  for (const token of tokens) {
    if (token.type === 'param' || token.type === 'wildcard') into.set(token.name, (into.get(token.name) ?? false) || required);
    else if (token.type === 'group') collect(token.tokens, false, into);
  }
}

/**
 * The parameters an Express 5 path gives a route, read with path-to-regexp's own parser (the one
 * Express matches with): `:name` and `*name` (its segments joined by `/`) are strings, and one
 * inside braces may be absent.
 */
export function paramsOfPath(path: string): ParamSet {
  const params = new Map<string, boolean>();
  collect(parse(path).tokens, true, params);
  return params;
}
