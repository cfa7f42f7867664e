import { MapSession, type SessionData, type SessionStorage } from './session.ts';
import { createSignedCookie, type SessionCookieOptions } from './signed-cookie.ts';

/**
 * Sessions kept in a store the app gives (a database, a cache), in the shape of React Router's
 * `createSessionStorage`: the cookie holds only the session's id, signed and dated as the cookie
 * storage signs its data (signed-cookie.ts), and the store holds the data. A sign-out deletes the
 * session from the store, so a copy of its cookie kept elsewhere no longer holds it.
 *
 * Unlike React Router's, a cookie whose id the store does not know (deleted, expired, never
 * made) gives a session without an id, so committing it makes a new one: a deleted id is never
 * written again.
 */

export interface SessionIdStorageStrategy<Data extends object = SessionData> {
  /** The id's cookie: the cookie storage's options, its secrets signing the id. */
  readonly cookie: SessionCookieOptions;
  /**
   * Stores a new session and gives its id, which should be unguessable (random, 128 bits or more)
   * and unique. `expires` is when it ends, from `cookie.maxAge`, or undefined without one.
   */
  createData(data: Partial<Data>, expires: Date | undefined): Promise<string>;
  /** The data of the session with this id, or null (or undefined) when the store has none or it has expired. */
  readData(id: string): Promise<Partial<Data> | null | undefined>;
  /** Stores the session's data anew under its id, with its new end. */
  updateData(id: string, data: Partial<Data>, expires: Date | undefined): Promise<void>;
  /** Removes the session: a sign-out. */
  deleteData(id: string): Promise<void>;
}

/** An id as the cookie carries it: base64url, so any id the store gives (dots included) is one payload. */
function encodedId(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

/**
 * Sessions in the app's store; see the module's comment. Throws at once for a missing or short
 * secret. A store that throws fails the request (a 500 with its error logged), never signs the
 * visitor out in silence.
 */
export function createSessionStorage<Data extends object = SessionData>({
  cookie,
  createData,
  readData,
  updateData,
  deleteData,
}: SessionIdStorageStrategy<Data>): SessionStorage<Data> {
  const signedCookie = createSignedCookie(cookie, 'createSessionStorage');
  const { maxAge } = signedCookie;

  return {
    async getSession(cookieHeader) {
      const payload = signedCookie.read(cookieHeader);
      const id = payload === undefined ? '' : Buffer.from(payload, 'base64url').toString('utf8');
      if (id === '') return new MapSession<Data>({});
      const data = await readData(id);
      return data === null || data === undefined ? new MapSession<Data>({}) : new MapSession<Data>(data, id);
    },
    async commitSession(session) {
      const expires = maxAge === undefined ? undefined : new Date(Date.now() + maxAge * 1000);
      let { id } = session;
      if (id === '') {
        id = await createData(session.data, expires);
        if (id === '') throw new TypeError('createSessionStorage: createData gave no id (expected a non-empty string)');
      } else {
        await updateData(id, session.data, expires);
      }
      return signedCookie.serialize(encodedId(id));
    },
    async destroySession(session) {
      if (session.id !== '') await deleteData(session.id);
      return signedCookie.clear();
    },
  };
}
