import { join } from 'node:path';
import { ConfigError, type Environment } from 'react-stream-shell/server';

export type DatabaseSettings =
  | { readonly dialect: 'sqlite'; readonly file: string; readonly timeoutMs: number }
  | { readonly dialect: 'postgres'; readonly url: string; readonly poolSize: number; readonly timeoutMs: number };

/** SQLite in memory, one per app, where tests build the app; a file under data/ everywhere else. */
const TEST_DATABASE = ':memory:';
const DEFAULT_FILE = join('data', 'guestbook.sqlite');
export const DATABASE_DEFAULTS = { poolSize: 10, timeoutMs: 1000 } as const;

function integer(env: Environment, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) throw new ConfigError(name, raw, `an integer from ${min} to ${max}`);
  return value;
}

/**
 * The database the app's stores use, read once at start (docs/deployment.md#the-database):
 * PostgreSQL when `DATABASE_URL` says so, else SQLite in `GUESTBOOK_DATABASE` (default
 * data/guestbook.sqlite, in memory under NODE_ENV=test). A bad value is a ConfigError: the
 * start stops with one line and exit 78.
 */
export function readDatabaseSettings(env: Environment): DatabaseSettings {
  const timeoutMs = integer(env, 'DATABASE_TIMEOUT_MS', DATABASE_DEFAULTS.timeoutMs, 50, 60_000);
  const url = env.DATABASE_URL?.trim();
  if (url !== undefined && url !== '') {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    // The URL holds a password: never shown.
    if (parsed === undefined || (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')) {
      throw new ConfigError('DATABASE_URL', '<not shown>', 'a postgres:// or postgresql:// URL');
    }
    return { dialect: 'postgres', url, poolSize: integer(env, 'DATABASE_POOL_SIZE', DATABASE_DEFAULTS.poolSize, 1, 100), timeoutMs };
  }
  const file = env.GUESTBOOK_DATABASE?.trim() || (env.NODE_ENV === 'test' ? TEST_DATABASE : DEFAULT_FILE);
  return { dialect: 'sqlite', file, timeoutMs };
}
