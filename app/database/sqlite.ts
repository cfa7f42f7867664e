import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { serviceUnavailable } from 'react-stream-shell';
import { type Database, DatabaseUnavailableError, type Query, type Row } from './database.ts';

/**
 * SQLite's result codes (the primary code, the low byte of the extended one) that mean the
 * database cannot answer now rather than that the query is wrong: busy or locked past the
 * timeout, an I/O error, a full disk, a file that cannot be opened, a protocol error on a lock.
 */
const UNAVAILABLE_CODES = new Set([5, 6, 10, 13, 14, 15]);

function unavailableOrBug(error: unknown): never {
  const code = (error as { errcode?: unknown }).errcode;
  if (typeof code === 'number' && UNAVAILABLE_CODES.has(code & 0xff)) serviceUnavailable(new DatabaseUnavailableError(error));
  throw error;
}

/** `$1` as SQLite spells a numbered parameter, `?1`: the stores write their SQL once for both dialects. */
function sqliteParams(sql: string): string {
  return sql.replace(/\$(\d+)/g, '?$1');
}

export interface SqliteOptions {
  /** A path (its folder made when missing), or `:memory:`. */
  readonly file: string;
  /** How long a statement waits for another connection's lock before it gives up (busy timeout). */
  readonly timeoutMs: number;
}

/**
 * SQLite through Node's own `node:sqlite` (no native package to build). Its calls are
 * synchronous: a query holds the event loop while it runs, which for the small indexed queries
 * of a guest book is microseconds (docs/app-benchmark.md#the-database), and a wait for another
 * process's write lock holds it up to `timeoutMs`, then answers 503. WAL lets readers go on while
 * one connection writes. One file is one machine's: several instances share PostgreSQL.
 */
export function openSqlite({ file, timeoutMs }: SqliteOptions): Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  // A file that is no database, or cannot be opened, throws here: open.ts names the setting.
  const db = new DatabaseSync(file, { timeout: timeoutMs });
  if (file !== ':memory:') db.exec('PRAGMA journal_mode = WAL');
  const statements = new Map<string, ReturnType<DatabaseSync['prepare']>>();

  const query: Query = async <Result extends Row = Row>(sql: string, params: readonly unknown[] = []) => {
    try {
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = db.prepare(sqliteParams(sql));
        statements.set(sql, statement);
      }
      return statement.all(...(params as SQLInputValue[])) as unknown as Result[];
    } catch (error) {
      return unavailableOrBug(error);
    }
  };

  return {
    dialect: 'sqlite',
    query,
    async transaction(work) {
      // IMMEDIATE takes the write lock now: two instances migrating one file take turns.
      await query('BEGIN IMMEDIATE');
      try {
        const result = await work(query);
        await query('COMMIT');
        return result;
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        throw error;
      }
    },
    async ping() {
      await query('SELECT 1');
    },
    async close() {
      if (db.isOpen) db.close();
    },
  };
}
