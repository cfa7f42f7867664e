import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import request from 'supertest';
import { afterAll, describe, expect, test } from 'vitest';
import { createTestApp } from 'react-stream-shell/testing';
import app from '../app.ts';
import { DatabaseUnavailableError } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { openSqlite } from '../database/sqlite.ts';
import { GUESTBOOK_MIGRATIONS } from './migrations/index.ts';
import { storeContract } from './store-contract.ts';
import { createGuestbookStore } from './store.server.ts';

const dir = mkdtempSync(join(tmpdir(), 'guestbook-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
function freshFile(): string {
  files += 1;
  return join(dir, `book-${files}`, 'guestbook.sqlite');
}

describe('the guest book store on SQLite, in a file', () => {
  storeContract(async () => openSqlite({ file: freshFile(), timeoutMs: 200 }));

  test('keeps its entries across a restart', async () => {
    const file = freshFile();
    const first = openSqlite({ file, timeoutMs: 200 });
    await migrate(first, GUESTBOOK_MIGRATIONS);
    await createGuestbookStore(first).add({ name: 'Ada', message: 'kept' });
    await first.close();
    const again = openSqlite({ file, timeoutMs: 200 });
    expect(await migrate(again, GUESTBOOK_MIGRATIONS)).toEqual([]);
    expect((await createGuestbookStore(again).list()).map((entry) => entry.message)).toEqual(['kept']);
    await again.close();
  });

  test('a write the database cannot take within its timeout (another process holds the lock) is a 503, in about the timeout', async () => {
    const file = freshFile();
    const db = openSqlite({ file, timeoutMs: 200 });
    await migrate(db, GUESTBOOK_MIGRATIONS);
    const other = new DatabaseSync(file);
    other.exec('BEGIN EXCLUSIVE');
    try {
      const started = performance.now();
      const error = await createGuestbookStore(db)
        .add({ name: 'Ada', message: 'blocked' })
        .catch((caught: unknown) => caught);
      const took = performance.now() - started;
      expect(error).toMatchObject({ name: 'HttpError', status: 503 });
      expect((error as Error).cause).toBeInstanceOf(DatabaseUnavailableError);
      expect((error as Error).cause).toMatchObject({ message: 'database unavailable: database is locked' });
      expect(took).toBeGreaterThanOrEqual(180);
      expect(took).toBeLessThan(2000);
      // Reads go on beside the writer (WAL).
      expect(await createGuestbookStore(db).list()).toEqual([]);
    } finally {
      other.exec('ROLLBACK');
      other.close();
      await db.close();
    }
  });

  test('a bug in a query stays a 500: it is not the database being unavailable', async () => {
    const db = openSqlite({ file: freshFile(), timeoutMs: 200 });
    await expect(db.query('SELECT nope FROM nowhere')).rejects.toMatchObject({ code: 'ERR_SQLITE_ERROR', errstr: 'SQL logic error' });
    await db.close();
  });
});

describe('the app on a database that cannot answer', () => {
  test('a post while another process holds the write lock: the 503 status page with a digest, one error line with the same digest', async () => {
    const file = freshFile();
    const tested = createTestApp(app, { env: { GUESTBOOK_DATABASE: file, DATABASE_TIMEOUT_MS: '100' } });
    await tested.start();
    const other = new DatabaseSync(file);
    other.exec('BEGIN EXCLUSIVE');
    try {
      const res = await request(tested.app).post('/guestbook').set('Sec-Fetch-Site', 'same-origin').type('form').send({ name: 'Ada', message: 'hello' });
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('<title>503: Service Unavailable.</title>');
      const digest = /Digest: ([\w-]{16})/.exec(res.text)?.[1];
      expect(digest).toBeDefined();
      const errors = tested.logs.filter((line) => line.level >= 50);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ msg: 'server error', digest, err: { type: 'DatabaseUnavailableError', message: 'database unavailable: database is locked' } });
      // The completion line says 503 too.
      expect(tested.logs.find((line) => line.msg === 'request completed')).toMatchObject({ status: 503 });
    } finally {
      other.exec('ROLLBACK');
      other.close();
      await tested.close();
    }
  });

  test('/readyz answers ok while the database answers, /healthz without asking it', async () => {
    const tested = createTestApp(app, { env: { GUESTBOOK_DATABASE: freshFile() } });
    await tested.start();
    expect((await request(tested.app).get('/readyz').expect(200)).text).toBe('ok\n');
    await tested.close();
    // Closed: once the check's answer is older than its interval (1 s), the check runs again,
    // fails, and the probe says so (the log line says why); /healthz is still 200.
    expect((await request(tested.app).get('/readyz').expect(200)).text).toBe('ok\n');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const res = await request(tested.app).get('/readyz').expect(503);
    expect(res.text).toBe('readiness check failed\n');
    await request(tested.app).get('/healthz').expect(200);
  });
});
