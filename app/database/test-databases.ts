import { createServer } from 'node:net';
import pg from 'pg';

/**
 * For the app's PostgreSQL tests (`*.postgres.test.ts`, the `postgres` project): a database of a
 * test's own on the server the project's global setup started, and a port nobody answers at.
 */

/** A fresh database on that server: its URL. */
export async function createTestDatabase(serverUrl: string): Promise<string> {
  const name = `test_${Math.random().toString(36).slice(2, 10)}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A port nothing listens on right now: a database nobody answers at. */
export async function freePort(): Promise<number> {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const address = listener.address();
  await new Promise((resolve) => listener.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
