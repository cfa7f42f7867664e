import type { Database, Row } from '../database/database.ts';

export interface Entry {
  readonly id: string;
  readonly name: string;
  readonly message: string;
  readonly createdAt: Date;
  /** How many times visitors liked it. */
  readonly likes: number;
}

export interface GuestbookStats {
  readonly entries: number;
  readonly authors: number;
}

export interface GuestbookStore {
  /** Newest first. */
  list(): Promise<readonly Entry[]>;
  find(id: string): Promise<Entry | undefined>;
  add(entry: { readonly name: string; readonly message: string }): Promise<Entry>;
  /** One more like for the entry; `undefined` when there is no such entry. */
  like(id: string): Promise<Entry | undefined>;
  /** An aggregate worth streaming: a real one would scan a table. */
  stats(): Promise<GuestbookStats>;
}

/** The columns every query returns, as the page reads them. */
const COLUMNS = 'id, name, message, created_at, likes';

/** The statistic is made to take a moment, so the page shows it streaming in after the list. */
const STATS_DELAY_MS = 150;

/** An id the table could hold: anything else (`/guestbook/abc`) is no entry, without asking PostgreSQL to cast it. */
const ID = /^[1-9]\d{0,17}$/;

/** A row as either driver gives it: SQLite's numbers and ISO text, PostgreSQL's bigint as text and its Date. */
function toEntry(row: Row): Entry {
  return {
    id: String(row.id),
    name: String(row.name),
    message: String(row.message),
    createdAt: row.created_at instanceof Date ? row.created_at : new Date(String(row.created_at)),
    likes: Number(row.likes),
  };
}

/**
 * The guest book's entries in the app's database (SQLite by default, PostgreSQL with
 * DATABASE_URL: app/database/), one SQL for both. Several instances share one PostgreSQL, so
 * every change is one statement the database applies whole: ids from the database, a like as
 * `likes + 1`. A database that cannot answer rejects with the 503 of `serviceUnavailable()`
 * (database.ts). This module's name keeps it, and its drivers, out of the browser.
 */
export function createGuestbookStore(db: Database): GuestbookStore {
  return {
    async list() {
      return (await db.query(`SELECT ${COLUMNS} FROM entries ORDER BY id DESC`)).map(toEntry);
    },
    async find(id) {
      if (!ID.test(id)) return undefined;
      const [row] = await db.query(`SELECT ${COLUMNS} FROM entries WHERE id = $1`, [id]);
      return row === undefined ? undefined : toEntry(row);
    },
    async add({ name, message }) {
      const createdAt = new Date();
      // SQLite keeps the date as ISO text, PostgreSQL as timestamptz: both take the ISO string.
      const [row] = await db.query(`INSERT INTO entries (name, message, created_at, likes) VALUES ($1, $2, $3, 0) RETURNING ${COLUMNS}`, [name, message, createdAt.toISOString()]);
      if (row === undefined) throw new Error('INSERT … RETURNING returned no row');
      return toEntry(row);
    },
    async like(id) {
      if (!ID.test(id)) return undefined;
      const [row] = await db.query(`UPDATE entries SET likes = likes + 1 WHERE id = $1 RETURNING ${COLUMNS}`, [id]);
      return row === undefined ? undefined : toEntry(row);
    },
    async stats() {
      const [row] = await db.query('SELECT COUNT(*) AS entries, COUNT(DISTINCT LOWER(name)) AS authors FROM entries');
      await new Promise((resolve) => setTimeout(resolve, STATS_DELAY_MS));
      return { entries: Number(row?.entries ?? 0), authors: Number(row?.authors ?? 0) };
    },
  };
}
