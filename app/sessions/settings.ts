import { ConfigError, type Environment } from 'react-stream-shell/server';

/** Where the app keeps its sessions: in the signed cookie itself (the default), or in the database with only the id in the cookie. */
export type SessionStore = 'cookie' | 'database';

/**
 * `SESSION_STORE`, read once at start (docs/sessions.md#the-example-apps-setting): `cookie` when
 * unset. Anything else stops the start with one line naming it (exit 78).
 */
export function readSessionStore(env: Environment): SessionStore {
  const raw = env.SESSION_STORE?.trim() ?? '';
  if (raw === '' || raw === 'cookie') return 'cookie';
  if (raw === 'database') return 'database';
  throw new ConfigError('SESSION_STORE', raw, '"cookie" (the default) or "database"');
}
