import { createHmac, timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie, type SetCookie } from 'cookie';
import { noteSessionCookie } from './session-cookies.ts';

/**
 * Sessions kept in a signed cookie (docs/sessions.md), in the shape of React Router's
 * `createCookieSessionStorage`: nothing is stored on the server, so every instance behind a load
 * balancer reads a session any other instance wrote, as long as they share the secret.
 *
 * The cookie holds the session's data as base64url JSON, with `maxAge` the time it expires, and an
 * HMAC-SHA256 of both and of the cookie's name. The data is signed, not encrypted: a visitor can
 * read what is in their own cookie, so keep it to ids and roles, never secrets.
 */

export type SessionData = Readonly<Record<string, unknown>>;

export interface Session<Data extends object = SessionData> {
  get<Key extends keyof Data & string>(key: Key): Data[Key] | undefined;
  set<Key extends keyof Data & string>(key: Key, value: Data[Key]): void;
  unset(key: keyof Data & string): void;
  has(key: keyof Data & string): boolean;
  /** A copy of everything in the session. */
  readonly data: Partial<Data>;
}

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

export interface SessionStorage<Data extends object = SessionData> {
  /** The session the `Cookie` header carries; an empty one when there is none or its signature does not verify. */
  getSession(cookieHeader: string | null | undefined): Promise<Session<Data>>;
  /** The `Set-Cookie` value that stores the session: return it from an action or `load` in `data(value, { headers })`. */
  commitSession(session: Session<Data>): Promise<string>;
  /** The `Set-Cookie` value that removes the session's cookie (a sign-out). */
  destroySession(session: Session<Data>): Promise<string>;
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

/**
 * The signature of a signed part (signedPart) under one secret, made over `<name>=<signed>`: the
 * cookie's name is signed too, so storages that share a secret (the session and a preferences
 * cookie, say) never take each other's cookies, renamed. A name holds no `=` (a cookie name is a
 * token), so no other name and part give the same text.
 */
function sign(name: string, signed: string, secret: string): string {
  return createHmac('sha256', secret).update(`${name}=${signed}`).digest('base64url');
}

/** Whole seconds since the epoch: a session's expiry is written in them. */
function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * What is signed: the data, then with `maxAge` the second it expires (`<data>.<expires>`). The
 * expiry is inside the signature, so a visitor cannot move it; the browser's `Max-Age` alone
 * would let a copy of the cookie kept elsewhere live as long as its secret.
 */
function signedPart(data: string, maxAge: number | undefined): string {
  return maxAge === undefined ? data : `${data}.${nowSeconds() + maxAge}`;
}

/**
 * The data of a signed part (so one signedPart wrote) that has not expired: with `maxAge` set, one
 * without an expiry (signed before the storage had `maxAge`) is refused too, or it would never end.
 */
function unexpiredData(signed: string, maxAge: number | undefined): string | undefined {
  const [data, expires] = signed.split('.');
  if (expires === undefined) return maxAge === undefined ? data : undefined;
  return Number(expires) > nowSeconds() ? data : undefined;
}

/**
 * The data of a cookie value whose signature one of the secrets made for this cookie's name, and
 * whose expiry, if it has one, is still to come; undefined otherwise. The signature is compared
 * as written, not as decoded: Node's base64url decoder skips padding and stray characters and
 * ignores the last character's spare bits, so other spellings decode to the same bytes, and a
 * changed cookie must not pass.
 */
function verified(name: string, value: string, secrets: readonly string[], maxAge: number | undefined): SessionData | undefined {
  const dot = value.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const signed = value.slice(0, dot);
  const signature = Buffer.from(value.slice(dot + 1));
  const trusted = secrets.some((secret) => {
    const expected = Buffer.from(sign(name, signed, secret));
    return expected.length === signature.length && timingSafeEqual(expected, signature);
  });
  if (!trusted) return undefined;
  const payload = unexpiredData(signed, maxAge);
  if (payload === undefined) return undefined;
  try {
    const data: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (typeof data === 'object' && data !== null && !Array.isArray(data)) return data as SessionData;
  } catch {
    // Signed data that does not parse is no session, as signed data that is no object.
  }
  return undefined;
}

/**
 * A session's values in a Map: any key is a key (`__proto__` too). A class, not an object
 * literal of closures with a `data` getter: V8 builds such a literal through a slow path, and
 * every request to an app with sessions makes one (about 5 µs a request under load, against a
 * tenth of that for the class).
 */
class CookieSession<Data extends object> implements Session<Data> {
  readonly #values: Map<string, unknown>;

  constructor(initial: SessionData) {
    this.#values = new Map(Object.entries(initial));
  }

  get<Key extends keyof Data & string>(key: Key): Data[Key] | undefined {
    return this.#values.get(key) as Data[Key] | undefined;
  }

  set<Key extends keyof Data & string>(key: Key, value: Data[Key]): void {
    this.#values.set(key, value);
  }

  unset(key: keyof Data & string): void {
    this.#values.delete(key);
  }

  has(key: keyof Data & string): boolean {
    return this.#values.has(key);
  }

  get data(): Partial<Data> {
    return Object.fromEntries(this.#values) as Partial<Data>;
  }
}

/** Sessions in a signed cookie; see the module's comment. Throws at once for a missing or short secret. */
export function createCookieSessionStorage<Data extends object = SessionData>({ cookie }: { readonly cookie: SessionCookieOptions }): SessionStorage<Data> {
  const { secrets, name = '__session', maxAge } = cookie;
  const [signingSecret] = secrets;
  if (signingSecret === undefined) throw new Error('createCookieSessionStorage needs at least one secret (cookie.secrets)');
  if (secrets.some((secret) => secret.length < SESSION_SECRET_MIN_LENGTH)) {
    throw new Error(`createCookieSessionStorage: every secret must be at least ${SESSION_SECRET_MIN_LENGTH} characters`);
  }
  if (maxAge !== undefined && !(Number.isSafeInteger(maxAge) && maxAge > 0)) {
    throw new Error(`createCookieSessionStorage: cookie.maxAge must be a whole number of seconds above 0, not ${maxAge}`);
  }
  // An answer to a request carrying this cookie is never shared-cacheable (session-cookies.ts).
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
    async getSession(cookieHeader) {
      const value = cookieHeader ? parseCookie(cookieHeader)[name] : undefined;
      return new CookieSession<Data>((value === undefined ? undefined : verified(name, value, secrets, maxAge)) ?? {});
    },
    async commitSession(session) {
      const signed = signedPart(Buffer.from(JSON.stringify(session.data)).toString('base64url'), maxAge);
      const value = `${signed}.${sign(name, signed, signingSecret)}`;
      const header = stringifySetCookie({ name, value, ...attributes });
      if (Buffer.byteLength(header) > MAX_SESSION_COOKIE_BYTES) throw new SessionTooLargeError(name, Buffer.byteLength(header));
      return header;
    },
    async destroySession() {
      return stringifySetCookie({ name, value: '', ...attributes, maxAge: 0, expires: new Date(0) });
    },
  };
}
