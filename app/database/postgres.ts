import pg from 'pg';
import { serviceUnavailable } from 'react-stream-shell';
import { type Database, DatabaseUnavailableError, type Query, type Row } from './database.ts';

/**
 * SQLSTATE classes that say the query is wrong (a bug: 500), not that the database cannot answer:
 * 22 data exception, 23 integrity constraint, 42 syntax or access rule. Everything else (08
 * connection, 53 resources, 57 operator intervention such as a statement timeout or a shutdown,
 * the driver's own timeouts and a refused connection, which carry no SQLSTATE) is a 503.
 */
const BUG_CLASSES = new Set(['22', '23', '42']);

function unavailableOrBug(error: unknown): never {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && BUG_CLASSES.has(code.slice(0, 2))) throw error;
  serviceUnavailable(new DatabaseUnavailableError(error));
}

export interface PostgresOptions {
  /** `DATABASE_URL`: postgres://user:password@host:port/database */
  readonly url: string;
  /** Connections at most; a query beyond them waits for one, up to `timeoutMs`. */
  readonly poolSize: number;
  /** Bounds connecting, waiting for a pooled connection, and each statement (server and client side). */
  readonly timeoutMs: number;
}

/**
 * PostgreSQL through `pg`'s pool. Every query is bounded three ways: `connectionTimeoutMillis`
 * (connecting, or waiting for a free connection), `statement_timeout` (the server cancels a
 * statement running longer, a lock wait included) and `query_timeout` (the client gives up on
 * an answer that does not come, a network that went silent). Past any, the query rejects and the
 * visitor gets a 503.
 */
export function openPostgres({ url, poolSize, timeoutMs }: PostgresOptions): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    // A little past the server's own limit, so a slow statement ends as the server's cancel.
    query_timeout: timeoutMs + 250,
    idleTimeoutMillis: 30_000,
    application_name: 'react-stream-shell-app',
  });
  // An idle connection the server closed (a restart, a failover) is dropped by the pool and the next
  // query opens another; without a listener its error would end the process.
  pool.on('error', () => undefined);

  function runner(client: pg.Pool | pg.PoolClient): Query {
    return async <Result extends Row = Row>(sql: string, params: readonly unknown[] = []) => {
      try {
        const result = await client.query<Result>(sql, params as unknown[]);
        return result.rows;
      } catch (error) {
        return unavailableOrBug(error);
      }
    };
  }
  const query = runner(pool);

  return {
    dialect: 'postgres',
    query,
    async transaction(work, { lockKey } = {}) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        return unavailableOrBug(error);
      }
      const inside = runner(client);
      try {
        await inside('BEGIN');
        // Instances starting at once migrate one at a time: the lock ends with the transaction.
        if (lockKey !== undefined) await inside('SELECT pg_advisory_xact_lock($1)', [lockKey]);
        const result = await work(inside);
        await inside('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async ping() {
      await query('SELECT 1');
    },
    async close() {
      await pool.end();
    },
  };
}
