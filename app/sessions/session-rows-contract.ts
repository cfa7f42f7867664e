import { afterEach, expect, test } from 'vitest';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { APP_MIGRATIONS } from '../database/migrations.ts';
import { createSessionRows } from './store.server.ts';

interface Fields {
  readonly visitor: { readonly name: string; readonly role: string };
}

/**
 * What the sessions table does on any database (sessions.test.ts runs it on SQLite,
 * sessions.postgres.test.ts on PostgreSQL): `open` gives a fresh, empty database each call.
 */
export function sessionRowsContract(open: () => Promise<Database>): void {
  const opened: Database[] = [];
  async function rows() {
    const db = await open();
    opened.push(db);
    await migrate(db, APP_MIGRATIONS);
    return { db, rows: createSessionRows<Fields>(db) };
  }
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
  });

  test('keeps, changes and deletes a session under a 128-bit random id', async () => {
    const { rows: store } = await rows();
    const later = new Date(Date.now() + 60_000);
    const id = await store.createData({ visitor: { name: 'Zoë', role: 'reader' } }, later);
    expect(id).toMatch(/^[\w-]{22}$/);
    expect(await store.createData({}, later)).not.toBe(id);
    expect(await store.readData(id)).toEqual({ visitor: { name: 'Zoë', role: 'reader' } });
    await store.updateData(id, { visitor: { name: 'Zoë', role: 'admin' } }, later);
    expect(await store.readData(id)).toEqual({ visitor: { name: 'Zoë', role: 'admin' } });
    await store.deleteData(id);
    expect(await store.readData(id)).toBeNull();
    // Deleted stays deleted: a commit of the old session writes nothing back.
    await store.updateData(id, { visitor: { name: 'Zoë', role: 'admin' } }, later);
    expect(await store.readData(id)).toBeNull();
    expect(await store.readData('never-made')).toBeNull();
  });

  test('a session past its end is none, one without an end lasts, and a sign-in sweeps the ended away', async () => {
    const { db, rows: store } = await rows();
    const ended = await store.createData({ visitor: { name: 'Ada', role: 'reader' } }, new Date(Date.now() - 1));
    const endless = await store.createData({ visitor: { name: 'Grace', role: 'reader' } }, undefined);
    expect(await store.readData(ended)).toBeNull();
    expect(await store.readData(endless)).toEqual({ visitor: { name: 'Grace', role: 'reader' } });
    const ids = (await db.query('SELECT id FROM sessions ORDER BY id')).map((row) => row.id);
    expect(ids).toEqual([endless]);
    // An end moved into the past by a commit is honoured too.
    await store.updateData(endless, {}, new Date(Date.now() - 1));
    expect(await store.readData(endless)).toBeNull();
  });
}
