/** A row as a driver returns it: column name to value. */
export type Row = Readonly<Record<string, unknown>>;

/** Runs one statement: SQL with `$1`, `$2`… placeholders (each dialect's driver takes them its way). */
export type Query = <Result extends Row = Row>(sql: string, params?: readonly unknown[]) => Promise<Result[]>;

/**
 * What the app's stores need of a database, the same on SQLite and PostgreSQL (docs/building-an-app.md#data).
 * Every query is bounded in time (the driver's timeouts); a database that is down, locked or
 * slow past them rejects with `DatabaseUnavailableError`, which answers 503.
 */
export interface Database {
  readonly dialect: 'sqlite' | 'postgres';
  readonly query: Query;
  /** `work` inside one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<Result>(work: (query: Query) => Promise<Result>, options?: { readonly lockKey?: number }): Promise<Result>;
  /** Rejects with `DatabaseUnavailableError` unless the database answers a trivial query now: `/readyz`'s check. */
  ping(): Promise<void>;
  /** Closes the connections once the queries in flight are done. */
  close(): Promise<void>;
}

/**
 * The database cannot answer now (down, unreachable, locked or slower than its timeout). Thrown
 * inside the framework's `serviceUnavailable()`, so the visitor gets the 503 status page with a
 * digest and the log one error line whose `err` is this, its `cause` the driver's own error. A
 * bug in a query (a syntax error, a broken constraint) is not this: it stays a 500.
 */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
  constructor(cause: unknown) {
    super(`database unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}
