import { ConfigError } from 'react-stream-shell/server';
import type { Database } from './database.ts';
import { openPostgres } from './postgres.ts';
import type { DatabaseSettings } from './settings.ts';
import { openSqlite } from './sqlite.ts';

/** Why SQLite refused a file, in the words of its cause (a folder, not a database, no permission). */
function reasonOf(error: unknown): string {
  const said = error instanceof Error && error.cause instanceof Error ? (error.cause.cause instanceof Error ? error.cause.cause : error.cause) : error;
  return said instanceof Error ? said.message : String(said);
}

/**
 * The database the settings name. PostgreSQL's pool connects to nothing yet (its first query
 * does, in the app's onStart); SQLite's file is opened now, and one it cannot open is a bad
 * GUESTBOOK_DATABASE: the start stops with one line naming it (exit 78).
 */
export function openDatabase(settings: DatabaseSettings): Database {
  if (settings.dialect === 'postgres') return openPostgres(settings);
  try {
    return openSqlite(settings);
  } catch (error) {
    throw new ConfigError('GUESTBOOK_DATABASE', settings.file, `a SQLite database file, or a path where one can be made; this one: ${reasonOf(error)}`);
  }
}
