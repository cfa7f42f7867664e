import pg from 'pg';
import request from 'supertest';
import { describe, expect, inject, test } from 'vitest';
import { createTestApp } from 'react-stream-shell/testing';
import app from '../app.ts';
import { DatabaseUnavailableError } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { openPostgres } from '../database/postgres.ts';
import { createTestDatabase, freePort } from '../database/test-databases.ts';
import { GUESTBOOK_MIGRATIONS } from './migrations/index.ts';
import { storeContract } from './store-contract.ts';
import { createGuestbookStore } from './store.server.ts';

declare module 'vitest' {
  interface ProvidedContext {
    /** The URL of the PostgreSQL the postgres project's global setup started (test/support/postgres-global-setup.ts). */
    postgresUrl: string;
  }
}

/** The PostgreSQL the project's global setup started, as a superuser without a password, on this machine only. */
const server = inject('postgresUrl');

async function freshDatabase(timeoutMs = 500): Promise<{ readonly url: string; readonly db: ReturnType<typeof openPostgres> }> {
  const url = await createTestDatabase(server);
  return { url, db: openPostgres({ url, poolSize: 4, timeoutMs }) };
}

describe('the guest book store on PostgreSQL', () => {
  storeContract(async () => (await freshDatabase()).db);

  test('two instances migrating one database at once apply each migration once', async () => {
    const url = await createTestDatabase(server);
    const [a, b] = [openPostgres({ url, poolSize: 2, timeoutMs: 2000 }), openPostgres({ url, poolSize: 2, timeoutMs: 2000 })];
    const applied = await Promise.all([migrate(a, GUESTBOOK_MIGRATIONS), migrate(b, GUESTBOOK_MIGRATIONS)]);
    expect(applied.flat()).toEqual(['0001-entries']);
    await Promise.all([a.close(), b.close()]);
  });

  test('a statement that waits on a lock past the timeout is cancelled by the server: a 503, in about the timeout', async () => {
    const { url, db } = await freshDatabase(300);
    await migrate(db, GUESTBOOK_MIGRATIONS);
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE entries IN ACCESS EXCLUSIVE MODE');
    try {
      const started = performance.now();
      const error = await createGuestbookStore(db)
        .list()
        .catch((caught: unknown) => caught);
      const took = performance.now() - started;
      expect(error).toMatchObject({ name: 'HttpError', status: 503 });
      expect((error as Error).cause).toBeInstanceOf(DatabaseUnavailableError);
      expect((error as Error).cause).toMatchObject({ message: 'database unavailable: canceling statement due to statement timeout' });
      expect(took).toBeGreaterThanOrEqual(280);
      expect(took).toBeLessThan(2000);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
      await db.close();
    }
  });

  test('a bug in a query stays a 500: a syntax error is thrown as it is', async () => {
    const { db } = await freshDatabase();
    await expect(db.query('SELEC 1')).rejects.toMatchObject({ code: '42601' });
    await db.close();
  });
});

describe('the app on PostgreSQL', () => {
  test('signs, lists and likes through DATABASE_URL, and closes its pool on close', async () => {
    const url = await createTestDatabase(server);
    const tested = createTestApp(app, { env: { DATABASE_URL: url } });
    await tested.start();
    const posted = await request(tested.app).post('/guestbook').set('Sec-Fetch-Site', 'same-origin').type('form').send({ name: 'Ada', message: 'On PostgreSQL.' }).expect(303);
    expect(posted.headers.location).toBe('/guestbook/1');
    expect((await request(tested.app).get('/api/entries').expect(200)).body).toEqual({
      entries: [{ id: '1', name: 'Ada', message: 'On PostgreSQL.', createdAt: expect.any(String), likes: 0 }],
    });
    expect((await request(tested.app).get('/readyz').expect(200)).text).toBe('ok\n');
    await tested.close();
    // The pool is ended: the app's connections leave the server (each backend exits a moment
    // after its client said goodbye, so the count is read until it is 0, for 2 s at most; an
    // open pool keeps its idle connection for 30 s).
    const probe = new pg.Client({ connectionString: server });
    await probe.connect();
    const database = new URL(url).pathname.slice(1);
    let open = -1;
    for (const deadline = Date.now() + 2000; open !== 0 && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
      const { rows } = await probe.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'react-stream-shell-app' AND datname = $1", [database]);
      open = rows[0].n;
    }
    await probe.end();
    expect(open).toBe(0);
  });

  test('a database nobody answers at: the page is the 503 status page with a digest and one error line, fast; /readyz 503, /healthz 200', async () => {
    const port = await freePort();
    const tested = createTestApp(app, { env: { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres`, DATABASE_TIMEOUT_MS: '300' } });
    const started = performance.now();
    const res = await request(tested.app).get('/guestbook');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(res.status).toBe(503);
    // The section's boundary, inside the layouts, titled with the status and showing the digest.
    expect(res.text).toContain('<title>503: Service Unavailable. · Guest book');
    expect(res.text).toContain('The guest book could not be shown');
    const digest = /Digest: (?:<!-- -->)?([\w-]{16})/.exec(res.text)?.[1];
    expect(digest).toBeDefined();
    const errors = tested.logs.filter((line) => line.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ digest, err: { type: 'DatabaseUnavailableError', message: expect.stringContaining('ECONNREFUSED') } });
    // JSON clients get the same status, with the digest.
    const json = await request(tested.app).get('/api/entries').set('Accept', 'application/json');
    expect(json.status).toBe(503);
    const probe = await request(tested.app).get('/readyz').expect(503);
    expect(probe.text).toBe('readiness check failed\n');
    expect(tested.logs.find((line) => line.msg === 'app not ready: /readyz answers 503')).toMatchObject({
      reason: expect.stringMatching(/^readiness check failed: database unavailable: .*ECONNREFUSED/),
    });
    await request(tested.app).get('/healthz').expect(200);
    await tested.close();
  });

  test('a migration that cannot be applied makes the start fail, naming it', async () => {
    const url = await createTestDatabase(server);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('CREATE TABLE entries (id TEXT)');
    await client.end();
    const tested = createTestApp(app, { env: { DATABASE_URL: url } });
    await expect(tested.start()).rejects.toThrow('migration 0001-entries failed: relation "entries" already exists');
    await tested.close();
  });
});
