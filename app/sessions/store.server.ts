import { randomBytes } from 'node:crypto';
import type { SessionIdStorageStrategy } from 'react-stream-shell/server';
import type { Database } from '../database/database.ts';

/** Bytes of a session's id: 128 random bits, as no visitor guesses. */
const ID_BYTES = 16;

/** What `createSessionStorage` asks of a store, the cookie aside. */
export type SessionRows<Data extends object> = Omit<SessionIdStorageStrategy<Data>, 'cookie'>;

/**
 * Sessions in the app's `sessions` table (migrations/0002-sessions.ts), one SQL for SQLite and
 * PostgreSQL. The end is kept and honoured here too, not only in the cookie's signed date: a
 * session past it is no session, and a sign-in sweeps the ended ones away. A sign-out deletes
 * the row, so every instance sharing the database refuses a copy of the cookie from then on.
 * A database that cannot answer rejects with the 503 of `serviceUnavailable()` (database.ts).
 */
export function createSessionRows<Data extends object>(db: Database): SessionRows<Data> {
  return {
    async createData(data, expires) {
      const now = Date.now();
      // Sign-ins are rare beside page views: the sweep rides on them, on the index of expires_at.
      await db.query('DELETE FROM sessions WHERE expires_at <= $1', [now]);
      const id = randomBytes(ID_BYTES).toString('base64url');
      await db.query('INSERT INTO sessions (id, data, expires_at) VALUES ($1, $2, $3)', [id, JSON.stringify(data), expires?.getTime() ?? null]);
      return id;
    },
    async readData(id) {
      const [row] = await db.query('SELECT data FROM sessions WHERE id = $1 AND (expires_at IS NULL OR expires_at > $2)', [id, Date.now()]);
      return row === undefined ? null : (JSON.parse(String(row.data)) as Partial<Data>);
    },
    async updateData(id, data, expires) {
      // An UPDATE, never an upsert: a session another instance deleted (a sign-out) stays deleted.
      await db.query('UPDATE sessions SET data = $2, expires_at = $3 WHERE id = $1', [id, JSON.stringify(data), expires?.getTime() ?? null]);
    },
    async deleteData(id) {
      await db.query('DELETE FROM sessions WHERE id = $1', [id]);
    },
  };
}
