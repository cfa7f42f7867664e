import { afterEach, expect, test } from 'vitest';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { GUESTBOOK_MIGRATIONS } from './migrations/index.ts';
import { createGuestbookStore } from './store.server.ts';

/**
 * What the guest book's store does on any database (store.test.ts runs it on SQLite,
 * store.postgres.test.ts on PostgreSQL): `open` gives a fresh, empty database each call.
 */
export function storeContract(open: () => Promise<Database>): void {
  const opened: Database[] = [];
  async function migrated(): Promise<Database> {
    const db = await open();
    opened.push(db);
    await migrate(db, GUESTBOOK_MIGRATIONS);
    return db;
  }
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
  });

  test('migrates once: a second start applies nothing, and the schema is recorded', async () => {
    const db = await open();
    opened.push(db);
    expect(await migrate(db, GUESTBOOK_MIGRATIONS)).toEqual(['0001-entries']);
    expect(await migrate(db, GUESTBOOK_MIGRATIONS)).toEqual([]);
    expect((await db.query('SELECT name FROM schema_migrations')).map((row) => row.name)).toEqual(['0001-entries']);
  });

  test('keeps entries newest first with ids from the database, finds one, counts likes made at once', async () => {
    const store = createGuestbookStore(await migrated());
    expect(await store.list()).toEqual([]);
    const [ada, grace] = await Promise.all([store.add({ name: 'Ada', message: 'one' }), store.add({ name: 'Grace', message: 'two' })]);
    expect(new Set([ada.id, grace.id])).toEqual(new Set(['1', '2']));
    expect((await store.list()).map((entry) => entry.id)).toEqual(['2', '1']);
    const found = await store.find('1');
    expect(found?.createdAt).toBeInstanceOf(Date);
    expect(found?.createdAt.getTime()).toBe((ada.id === '1' ? ada : grace).createdAt.getTime());
    await Promise.all([store.like('1'), store.like('1'), store.like('1')]);
    expect((await store.find('1'))?.likes).toBe(3);
    expect(await store.stats()).toEqual({ entries: 2, authors: 2 });
  });

  test('an id that is no entry, or could be none, is undefined, never an error', async () => {
    const store = createGuestbookStore(await migrated());
    await store.add({ name: 'Ada', message: 'one' });
    for (const id of ['2', 'abc', '0', '-1', '1.5', '99999999999999999999', "1' OR '1'='1"]) {
      expect(await store.find(id), id).toBeUndefined();
      expect(await store.like(id), id).toBeUndefined();
    }
  });

  test('a name and message keep every character: quotes, emoji, a NUL-free line break', async () => {
    const store = createGuestbookStore(await migrated());
    const message = `It's "fine"; DROP TABLE entries; -- 🎉\nsecond line`;
    const { id } = await store.add({ name: 'Zoë', message });
    expect(await store.find(id)).toMatchObject({ name: 'Zoë', message, likes: 0 });
  });

  test('a migration that fails leaves no trace of itself, names itself, and is tried again next start', async () => {
    const db = await open();
    opened.push(db);
    const broken = {
      name: '0002-broken',
      sqlite: 'CREATE TABLE half (id INTEGER);\nSELECT nope FROM nowhere;',
      postgres: 'CREATE TABLE half (id INTEGER);\nSELECT nope FROM nowhere;',
    };
    await expect(migrate(db, [...GUESTBOOK_MIGRATIONS, broken])).rejects.toThrow(/^migration 0002-broken failed: .*nowhere/);
    // The first was applied and kept; the broken one's table rolled back with it.
    expect((await db.query('SELECT name FROM schema_migrations')).map((row) => row.name)).toEqual(['0001-entries']);
    await expect(db.query('SELECT * FROM half')).rejects.toThrow();
    await expect(migrate(db, [...GUESTBOOK_MIGRATIONS, broken])).rejects.toThrow('0002-broken');
  });
}
