import { parseCookie, stringifySetCookie, type SetCookie } from 'cookie';
import { createHmacSigner, type HmacSigner } from '../security/hmac-signer.ts';
import { noteSessionCookie } from './session-cookies.ts';

/**
 * The signed, dated cookie every session storage writes (docs/sessions.md#what-the-cookie-is):
 * `name=<payload>.<signature>`, with `maxAge` `name=<payload>.<expires>.<signature>`, an
 * HMAC-SHA256 over the cookie's name and the rest. The cookie storage puts the session's data in
 * the payload, a store's storage the session's id; both sign, date and check it here, alike.
 */

export interface SessionCookieOptions {
  /** The cookie's name. Default `__session`. */
  readonly name?: string;
  /**
   * Signing secrets, each at least 32 characters: the first signs, any of them verifies, so a
   * secret is rotated by putting the new one first and dropping the old one once its cookies
   * have expired.
   */
  readonly secrets: readonly string[];
  /**
   * Seconds a committed session lasts: the browser keeps the cookie that long, and the server
   * refuses it after, whoever still holds a copy. Without it, the cookie lasts until the browser
   * closes and the server does not date it.
   */
  readonly maxAge?: number;
  readonly path?: string;
  readonly domain?: string;
  /** Default `lax`: sent on top-level navigations from other sites, never on their posts. */
  readonly sameSite?: 'lax' | 'strict' | 'none';
  /** Default true. Set false only for plain-HTTP development without a proxy. */
  readonly secure?: boolean;
}

/** Browsers keep at most about 4 KB per cookie; a larger session would be dropped without a word. */
export const MAX_SESSION_COOKIE_BYTES = 4096;
export const SESSION_SECRET_MIN_LENGTH = 32;

/** A session too large for one cookie: thrown by `commitSession`, so the app learns it instead of the visitor losing the session. */
export class SessionTooLargeError extends Error {
  override readonly name = 'SessionTooLargeError';
  readonly cookieName: string;
  readonly bytes: number;
  constructor(cookieName: string, bytes: number) {
    super(`session cookie ${cookieName} would be ${bytes} bytes, over the ${MAX_SESSION_COOKIE_BYTES} a browser keeps`);
    this.cookieName = cookieName;
    this.bytes = bytes;
  }
}

export interface SignedCookie {
  readonly name: string;
  /** Seconds a committed session lasts, as given. */
  readonly maxAge: number | undefined;
  /** The payload of this cookie in a `Cookie` header, when one of the secrets signed it for this name and it has not expired. */
  read(cookieHeader: string | null | undefined): string | undefined;
  /** The `Set-Cookie` value carrying `payload` (base64url, so holding no `.`), signed and, with `maxAge`, dated. */
  serialize(payload: string): string;
  /** The `Set-Cookie` value that removes the cookie. */
  clear(): string;
}

/**
 * What a cookie's signature covers: `<name>=<signed>`, so storages that share a secret (the
 * session and a preferences cookie, say) never take each other's cookies, renamed. A name holds
 * no `=` (a cookie name is a token), so no other name and part give the same text.
 */
function signedText(name: string, signed: string): string {
  return `${name}=${signed}`;
}

/** Whole seconds since the epoch: a session's expiry is written in them. */
function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * What is signed: the payload, then with `maxAge` the second it expires (`<payload>.<expires>`).
 * The expiry is inside the signature, so a visitor cannot move it; the browser's `Max-Age` alone
 * would let a copy of the cookie kept elsewhere live as long as its secret.
 */
function signedPart(payload: string, maxAge: number | undefined): string {
  return maxAge === undefined ? payload : `${payload}.${nowSeconds() + maxAge}`;
}

/**
 * The payload of a signed part (so one signedPart wrote) that has not expired: with `maxAge` set,
 * one without an expiry (signed before the storage had `maxAge`) is refused too, or it would never end.
 */
function unexpiredPayload(signed: string, maxAge: number | undefined): string | undefined {
  const [payload, expires] = signed.split('.');
  if (expires === undefined) return maxAge === undefined ? payload : undefined;
  return Number(expires) > nowSeconds() ? payload : undefined;
}

/**
 * The payload of a cookie value whose signature one of the secrets made for this cookie's name
 * (compared as written: hmac-signer.ts), and whose expiry, if it has one, is still to come;
 * undefined otherwise.
 */
function verified(name: string, value: string, signer: HmacSigner, maxAge: number | undefined): string | undefined {
  const dot = value.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const signed = value.slice(0, dot);
  return signer.verify(signedText(name, signed), value.slice(dot + 1)) ? unexpiredPayload(signed, maxAge) : undefined;
}

/**
 * The cookie of a session storage (`maker` names the storage's function in its errors). Throws at
 * once for a missing or short secret or a bad `maxAge`, and notes the name, so an answer to a
 * request carrying it is never shared-cacheable (session-cookies.ts).
 */
export function createSignedCookie(cookie: SessionCookieOptions, maker: string): SignedCookie {
  const { secrets, name = '__session', maxAge } = cookie;
  if (secrets.length === 0) throw new Error(`${maker} needs at least one secret (cookie.secrets)`);
  if (secrets.some((secret) => secret.length < SESSION_SECRET_MIN_LENGTH)) {
    throw new Error(`${maker}: every secret must be at least ${SESSION_SECRET_MIN_LENGTH} characters`);
  }
  if (maxAge !== undefined && !(Number.isSafeInteger(maxAge) && maxAge > 0)) {
    throw new Error(`${maker}: cookie.maxAge must be a whole number of seconds above 0, not ${maxAge}`);
  }
  const signer = createHmacSigner(secrets);
  noteSessionCookie(name);
  const attributes: Omit<SetCookie, 'name' | 'value'> = {
    path: cookie.path ?? '/',
    httpOnly: true,
    secure: cookie.secure ?? true,
    sameSite: cookie.sameSite ?? 'lax',
    // Left out of the header when not given: the serializer writes no attribute for undefined.
    domain: cookie.domain,
    maxAge,
  };

  return {
    name,
    maxAge,
    read(cookieHeader) {
      const value = cookieHeader ? parseCookie(cookieHeader)[name] : undefined;
      return value === undefined ? undefined : verified(name, value, signer, maxAge);
    },
    serialize(payload) {
      const signed = signedPart(payload, maxAge);
      const header = stringifySetCookie({ name, value: `${signed}.${signer.sign(signedText(name, signed))}`, ...attributes });
      if (Buffer.byteLength(header) > MAX_SESSION_COOKIE_BYTES) throw new SessionTooLargeError(name, Buffer.byteLength(header));
      return header;
    },
    clear() {
      return stringifySetCookie({ name, value: '', ...attributes, maxAge: 0, expires: new Date(0) });
    },
  };
}
