import type { IncomingHttpHeaders } from 'node:http';

/**
 * A request's headers as a Fetch `Headers` reads them (`get` and `has` case-insensitive, repeats
 * joined with ", "), over Node's parsed headers, which its parser has checked already: a page's
 * `request.headers.get('cookie')` costs a lookup, where building a `Headers` of the request's
 * twenty-odd entries validated each one again, on every request that read one. Iterating builds
 * that `Headers` once. Read-only, as a Fetch `Request`'s own headers are: a change throws.
 */
export class RequestHeaders implements Headers {
  readonly #incoming: IncomingHttpHeaders;
  #full: Headers | undefined;

  constructor(incoming: IncomingHttpHeaders) {
    this.#incoming = incoming;
  }

  get(name: string): string | null {
    const value = this.#incoming[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  has(name: string): boolean {
    return this.#incoming[name.toLowerCase()] !== undefined;
  }

  getSetCookie(): string[] {
    return this.#headers().getSetCookie();
  }

  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [key, value] of this.#headers()) callback.call(thisArg, value, key, this);
  }

  entries(): HeadersIterator<[string, string]> {
    return this.#headers().entries();
  }

  keys(): HeadersIterator<string> {
    return this.#headers().keys();
  }

  values(): HeadersIterator<string> {
    return this.#headers().values();
  }

  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.#headers()[Symbol.iterator]();
  }

  append(): never {
    throw readOnly();
  }

  set(): never {
    throw readOnly();
  }

  delete(): never {
    throw readOnly();
  }

  /** The full `Headers`, made on the first iteration. */
  #headers(): Headers {
    if (this.#full === undefined) {
      const headers = new Headers();
      for (const [name, value] of Object.entries(this.#incoming)) {
        if (value === undefined) continue;
        if (Array.isArray(value)) for (const item of value) headers.append(name, item);
        else headers.set(name, value);
      }
      this.#full = headers;
    }
    return this.#full;
  }
}

function readOnly(): TypeError {
  return new TypeError("A request's headers are read-only (Fetch's guard 'immutable')");
}
