import { createCookieSessionStorage, createSessionStorage, type Environment, readSecret, type SessionStorage } from 'react-stream-shell/server';
import type { SessionFields } from '../context.ts';
import type { Database } from '../database/database.ts';
import { readSessionStore } from './settings.ts';
import { createSessionRows } from './store.server.ts';

const WEEK_SECONDS = 7 * 24 * 60 * 60;

/**
 * The app's session storage, as `SESSION_STORE` says: the same cookie (name, secret, a week,
 * Secure outside development) holding the session itself, or only its id with the session in
 * the database's `sessions` table. Pages and actions see the same `SessionStorage` either way.
 */
export function createAppSessions(env: Environment, database: Database): SessionStorage<SessionFields> {
  const cookie = { name: '__session', secrets: [readSecret(env, 'SESSION_SECRET')], maxAge: WEEK_SECONDS, secure: env.NODE_ENV !== 'development' };
  if (readSessionStore(env) === 'database') return createSessionStorage<SessionFields>({ cookie, ...createSessionRows<SessionFields>(database) });
  return createCookieSessionStorage<SessionFields>({ cookie });
}
