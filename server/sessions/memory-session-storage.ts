import { randomBytes } from 'node:crypto';
import type { SessionData, SessionStorage } from './session.ts';
import { createSessionStorage } from './session-storage.ts';
import type { SessionCookieOptions } from './signed-cookie.ts';

/**
 * Sessions in this process's memory (React Router's `createMemorySessionStorage`), for tests and
 * a single development process: they end with the process, no other instance sees them, and an
 * ended session stays in memory until the process ends (only a sign-out deletes one), so a
 * long-lived server would grow. Production keeps sessions in a shared store through
 * `createSessionStorage`.
 */

/** Bytes of an id: 128 random bits, as no visitor guesses (React Router's memory store uses 64). */
const ID_BYTES = 16;

interface Entry<Data> {
  readonly data: Partial<Data>;
  readonly expires: Date | undefined;
}

export function createMemorySessionStorage<Data extends object = SessionData>({ cookie }: { readonly cookie: SessionCookieOptions }): SessionStorage<Data> {
  const entries = new Map<string, Entry<Data>>();
  return createSessionStorage<Data>({
    cookie,
    async createData(data, expires) {
      // No check for a taken id: two of 2^128 meet about never.
      const id = randomBytes(ID_BYTES).toString('base64url');
      entries.set(id, { data, expires });
      return id;
    },
    async readData(id) {
      const entry = entries.get(id);
      if (entry === undefined) return null;
      // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: equivalent on the wire, the cookie's signed expiry (signed-cookie.ts), never later than this one, refuses the cookie first; a store keeps its own end all the same
      return entry.expires !== undefined && entry.expires.getTime() <= Date.now() ? null : entry.data;
    },
    async updateData(id, data, expires) {
      entries.set(id, { data, expires });
    },
    async deleteData(id) {
      entries.delete(id);
    },
  });
}
