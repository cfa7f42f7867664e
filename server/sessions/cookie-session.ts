import { MapSession, type SessionData, type SessionStorage } from './session.ts';
import { createSignedCookie, type SessionCookieOptions } from './signed-cookie.ts';

/**
 * Sessions kept in a signed cookie (docs/sessions.md), in the shape of React Router's
 * `createCookieSessionStorage`: nothing is stored on the server, so every instance behind a load
 * balancer reads a session any other instance wrote, as long as they share the secret.
 *
 * The cookie (signed-cookie.ts) holds the session's data as base64url JSON, with `maxAge` the
 * time it expires, and an HMAC-SHA256 of both and of the cookie's name. The data is signed, not
 * encrypted: a visitor can read what is in their own cookie, so keep it to ids and roles, never
 * secrets. A sign-out clears the cookie, but a copy of it kept elsewhere still holds the session
 * until `maxAge` ends it: a session that must end when destroyed lives in a store
 * (session-storage.ts).
 */

export type { Session, SessionData, SessionStorage } from './session.ts';
export { MAX_SESSION_COOKIE_BYTES, SESSION_SECRET_MIN_LENGTH, type SessionCookieOptions, SessionTooLargeError } from './signed-cookie.ts';

/** The session's data in a verified payload; signed data that does not parse, or is no object, is no session. */
function decoded(payload: string): SessionData | undefined {
  try {
    const data: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (typeof data === 'object' && data !== null && !Array.isArray(data)) return data as SessionData;
  } catch {
    // Signed data that does not parse is no session, as signed data that is no object.
  }
  return undefined;
}

/** Sessions in a signed cookie; see the module's comment. Throws at once for a missing or short secret. */
export function createCookieSessionStorage<Data extends object = SessionData>({ cookie }: { readonly cookie: SessionCookieOptions }): SessionStorage<Data> {
  const signedCookie = createSignedCookie(cookie, 'createCookieSessionStorage');

  return {
    async getSession(cookieHeader) {
      const payload = signedCookie.read(cookieHeader);
      return new MapSession<Data>((payload === undefined ? undefined : decoded(payload)) ?? {});
    },
    async commitSession(session) {
      return signedCookie.serialize(Buffer.from(JSON.stringify(session.data)).toString('base64url'));
    },
    async destroySession() {
      return signedCookie.clear();
    },
  };
}
