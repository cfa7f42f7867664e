import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { postgresPath } from './system-components.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The URL of the PostgreSQL the postgres project's global setup started (postgres-global-setup.ts). */
    postgresUrl: string;
  }
}

/** initdb and postgres refuse to run as root: as root (CI), they run as `nobody`, who owns the data folder. */
const UNPRIVILEGED = { uid: 65534, gid: 65534 } as const;

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:<port>/postgres: trust authentication, this machine only. */
  readonly url: string;
  stop(): Promise<void>;
}

/** A port nothing listens on right now, the kernel's choice. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function waitUntilItAnswers(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited with code ${child.exitCode}: ${output()}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`postgres did not answer within 30 s: ${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * A real PostgreSQL from the machine's package (system-components.ts), as the nginx tests start
 * nginx: a fresh data folder made by initdb in a temporary folder, a free port on 127.0.0.1,
 * durability off (a test's data need not survive a crash, and fsync would cost seconds).
 * `stop()` ends it (fast shutdown) and removes the folder.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const postgres = postgresPath();
  const bin = dirname(postgres);
  const root = mkdtempSync(join(tmpdir(), 'postgres-test-'));
  const asRoot = process.getuid?.() === 0;
  const user = asRoot ? UNPRIVILEGED : {};
  if (asRoot) chownSync(root, UNPRIVILEGED.uid, UNPRIVILEGED.gid);
  const data = join(root, 'data');
  const init = spawnSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync'], {
    ...user,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, LC_ALL: 'C' },
  });
  if (init.status !== 0) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status}): ${init.stderr}`);
  }
  const port = await freePort();
  const child = spawn(postgres, ['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', root, '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'], {
    ...user,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LC_ALL: 'C' },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  child.stderr?.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  async function stop(): Promise<void> {
    if (child.exitCode === null) {
      // SIGINT: PostgreSQL's fast shutdown, which ends open sessions.
      child.kill('SIGINT');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(root, { recursive: true, force: true });
  }
  try {
    await waitUntilItAnswers(url, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

/** A fresh database of a test's own on that server: its URL. */
export async function createDatabase(serverUrl: string): Promise<string> {
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
