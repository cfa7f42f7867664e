import type { Database } from './database.ts';

/** One step of a schema: its name orders it (`0001-entries`), its SQL per dialect. */
export interface Migration {
  readonly name: string;
  readonly sqlite: string;
  readonly postgres: string;
}

/** A migration that failed: the start stops with its one line (exit 78). */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
  readonly migration: string;
  constructor(migration: string, cause: unknown) {
    const reason = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
    super(`migration ${migration} failed: ${reason}`, { cause });
    this.migration = migration;
  }
}

/** Any number, the same in every instance: the advisory lock that makes their migrations take turns. */
const MIGRATION_LOCK = 7_140_001;

/**
 * Brings the schema up to date: the migrations not yet in `schema_migrations`, in the order of
 * their names, each in its own transaction with its row, so a failed one leaves the schema as
 * the one before it left it, and the next start tries it again. All of it under one lock, so
 * instances that start together do not both apply one. Returns the names it applied.
 */
export async function migrate(db: Database, migrations: readonly Migration[]): Promise<string[]> {
  const ordered = [...migrations].sort((a, b) => (a.name < b.name ? -1 : 1));
  const applied: string[] = [];
  // Under the lock too: two PostgreSQL sessions creating one table at once would collide.
  await db.transaction((query) => query('CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)'), {
    lockKey: MIGRATION_LOCK,
  });
  for (const migration of ordered) {
    try {
      const done = await db.transaction(
        async (query) => {
          const rows = await query('SELECT name FROM schema_migrations WHERE name = $1', [migration.name]);
          if (rows.length > 0) return false;
          for (const statement of statementsOf(migration[db.dialect])) await query(statement);
          await query('INSERT INTO schema_migrations (name, applied_at) VALUES ($1, $2)', [migration.name, new Date().toISOString()]);
          return true;
        },
        { lockKey: MIGRATION_LOCK },
      );
      if (done) applied.push(migration.name);
    } catch (error) {
      throw new MigrationError(migration.name, error);
    }
  }
  return applied;
}

/** A migration's statements, one by one (a prepared statement is one statement): split on the `;` that ends a line. */
function statementsOf(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((statement) => statement.trim())
    .filter(Boolean);
}
