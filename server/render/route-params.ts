import type { RouteParams } from '../../shared/api/route-definition.ts';

/** Express 5 gives wildcard parameters as arrays of segments; pages see one string each. */
export function normalizeParams(params: Readonly<Record<string, string | string[] | undefined>>): RouteParams {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join('/') : value;
  }
  return out;
}

export function searchParamsOf(url: string): URLSearchParams {
  const queryStart = url.indexOf('?');
  return new URLSearchParams(queryStart === -1 ? '' : url.slice(queryStart + 1));
}
