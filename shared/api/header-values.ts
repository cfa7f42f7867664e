/**
 * The headers `data()` and `redirect()` are given, checked before Fetch's `Headers` takes them:
 * Fetch refuses a value holding CR, LF or NUL with an error that quotes the value, and that
 * error would reach the log with a session cookie or a token in it. Here a refused value is
 * named by its header alone (docs/security.md, "Header values never reach the log").
 */

/** What Fetch strips from either end of a value before it checks it (RFC 9110's whitespace, and CR and LF). */
const OUTER_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * What no header value may hold: a control character but tab (CR, LF and NUL among them), DEL,
 * or a character above U+00FF, which a header's bytes cannot carry. Fetch refuses the first
 * three, Node's `setHeader` the rest, with an error that names only the header.
 */
const REFUSED = /[^\t\x20-\x7e\x80-\xff]/;

/** A route gave a header whose value no header may hold: thrown where it gave it, naming the header, never its value. */
export class HeaderValueError extends TypeError {
  override readonly name = 'HeaderValueError';
  /** The header's name, as the route wrote it. */
  readonly header: string;

  constructor(by: string, header: string) {
    super(`${by} set a ${header} header holding a character a header may not hold (CR, LF, another control character, or one above U+00FF); its value is left out of this message`);
    this.header = header;
  }
}

/** Whether a header value holds, once Fetch has trimmed it, a character no header may hold. */
export function isRefusedHeaderValue(value: string): boolean {
  return REFUSED.test(value.replace(OUTER_WHITESPACE, ''));
}

/**
 * Fetch's `Headers` of `init` (an object, pairs, or a `Headers`), each of its values checked
 * first: throws HeaderValueError, naming `by` (`data()`, `redirect()`) and the header, for one no
 * header may hold. Anything else Fetch refuses (a name that is no name, a pair of three) it
 * refuses itself: those errors quote no value.
 */
export function checkedHeaders(by: string, init: HeadersInit | undefined): Headers {
  if (init === undefined) return new Headers();
  // A Headers the route made is checked too: Fetch lets through what Node refuses (a control character, DEL).
  const pairs: Iterable<readonly unknown[]> = Symbol.iterator in init ? init : Object.entries(init);
  for (const pair of pairs) {
    const [name, value] = pair;
    if (pair.length === 2 && typeof value === 'string' && isRefusedHeaderValue(value)) throw new HeaderValueError(by, String(name));
  }
  return new Headers(init);
}
