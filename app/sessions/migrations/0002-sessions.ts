import type { Migration } from '../../database/migrate.ts';

/**
 * Sessions kept in the database (SESSION_STORE=database): the data as JSON text, the end as
 * milliseconds since 1970 (an integer both dialects compare the same way; NULL for a session
 * without `maxAge`). Made whatever SESSION_STORE says, so turning it on needs no other step.
 */
export const sessions: Migration = {
  name: '0002-sessions',
  sqlite: `
    CREATE TABLE sessions (
      id TEXT PRIMARY KEY,
      data TEXT NOT NULL,
      expires_at INTEGER
    );
    CREATE INDEX sessions_expires_at ON sessions (expires_at);
  `,
  postgres: `
    CREATE TABLE sessions (
      id TEXT PRIMARY KEY,
      data TEXT NOT NULL,
      expires_at BIGINT
    );
    CREATE INDEX sessions_expires_at ON sessions (expires_at);
  `,
};
