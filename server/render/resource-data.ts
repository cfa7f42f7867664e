import type { Unwrapped } from './page-answer.ts';

/**
 * What a resource route answers when its `load` or action returns data rather than a `Response`
 * (docs/responses.md#data-from-a-resource-route), as React Router answers a resource route's data:
 * a string as `new Response(string)` would, text; anything else as `Response.json(value, init)`
 * would, JSON. The same status, headers and bytes on the wire, made here as one string the
 * response ends with: no `Response`, no web stream to read back, and Node sends the head and the
 * text in one write, counting its length.
 */
export interface DataAnswer {
  readonly status: number;
  /** The headers `data()` gave; `undefined` for none, most answers. */
  readonly headers: HeadersInit | undefined;
  /** The body's `Content-Type`, unless `headers` names one (as `Response.json()` lets it). */
  readonly type: typeof TEXT_TYPE | typeof JSON_TYPE;
  readonly body: string;
}

/** `new Response(string)`'s type. */
export const TEXT_TYPE = 'text/plain;charset=UTF-8';
/** `Response.json()`'s type. */
export const JSON_TYPE = 'application/json';

/**
 * Data JSON writes as it is: null, a number, a boolean, an array, or an object of no class (a
 * literal, `Object.create(null)`). A `Map`, a `Set` or a class's instance is refused: JSON would
 * write `{}` or only its own fields, never what the route meant. What they hold follows JSON's
 * rules, as in `Response.json()` (a `Date` its ISO string, `undefined` left out).
 */
function isPlainData(value: unknown): boolean {
  if (value === null || typeof value === 'number' || typeof value === 'boolean' || Array.isArray(value)) return true;
  if (typeof value !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The answer for what a resource route returned, out of `data()`; `undefined` when it is no data
 * to send (`undefined`, a function, a `Map`, an object whose `toJSON()` gives nothing). Throws
 * what `JSON.stringify` throws (a `BigInt`, a cycle): the route's fault, its 500 page.
 */
export function dataAnswer({ value, status = 200, headers }: Unwrapped): DataAnswer | undefined {
  if (typeof value === 'string') return { status, headers, type: TEXT_TYPE, body: value };
  const body = isPlainData(value) ? (JSON.stringify(value) as string | undefined) : undefined;
  return body === undefined ? undefined : { status, headers, type: JSON_TYPE, body };
}
