import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

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

interface StoredEntry {
  readonly id: string;
  readonly name: string;
  readonly message: string;
  readonly createdAt: string;
  /** Missing in files written before entries had likes. */
  readonly likes?: number;
}

/**
 * The guest book's entries: in memory, and in `file` as JSON when one is given
 * (`GUESTBOOK_FILE`), written to a temporary file and renamed so a crash never leaves half a
 * file. Writes are queued, so two posts at once never lose one. One instance per process: an
 * app with several instances would use a database here; this module's name keeps it, and
 * `node:fs`, out of the browser.
 *
 * The file is read here, at start, and all of it checked: one that cannot be read, or holds
 * anything but entries, throws a `GuestbookFileError` before the server listens (the app turns
 * it into a bad setting), rather than failing later in every request, or in none, while the
 * instance reports itself ready. A file that does not exist yet is an empty guest book.
 */
export function createGuestbookStore(file?: string): GuestbookStore {
  /** What the pages show: the entries as the file last took them. A save on its way holds no read back. */
  let saved: readonly Entry[] = file === undefined ? [] : readEntries(file);
  /** What the next change applies to: the entries once the changes before it are saved, or refused. */
  let entries: Promise<readonly Entry[]> = Promise.resolve(saved);
  let writes: Promise<void> = Promise.resolve();

  async function persist(all: readonly Entry[]): Promise<void> {
    if (file === undefined) return;
    const stored: StoredEntry[] = all.map((entry) => ({ ...entry, createdAt: entry.createdAt.toISOString() }));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(`${file}.tmp`, `${JSON.stringify(stored, null, 2)}\n`);
    await rename(`${file}.tmp`, file);
  }

  /**
   * Applies one change to the entries and saves them. Chained before any await, so two posts at
   * once take turns and neither is lost. The changed entries are shown once they are saved: a
   * save that fails (a full disk) answers its post with an error and leaves them as they were,
   * so no page shows an entry the file does not hold; one still on its way holds up the next
   * change, never a read.
   */
  async function change<Result>(apply: (all: readonly Entry[]) => { readonly all: readonly Entry[]; readonly result: Result }): Promise<Result> {
    const before = entries;
    const changed = before.then(apply);
    const written = writes.then(async () => {
      const { all } = await changed;
      await persist(all);
      saved = all;
    });
    writes = written.catch(() => undefined);
    entries = written.then(
      async () => (await changed).all,
      () => before,
    );
    await written;
    return (await changed).result;
  }

  return {
    async list() {
      return [...saved].reverse();
    },
    async find(id) {
      return saved.find((entry) => entry.id === id);
    },
    async add({ name, message }) {
      return change((all) => {
        const entry: Entry = { id: String(all.length + 1), name, message, createdAt: new Date(), likes: 0 };
        return { all: [...all, entry], result: entry };
      });
    },
    async like(id) {
      return change((all) => {
        const liked = all.find((entry) => entry.id === id);
        if (liked === undefined) return { all, result: undefined };
        const entry: Entry = { ...liked, likes: liked.likes + 1 };
        return { all: all.map((other) => (other === liked ? entry : other)), result: entry };
      });
    },
    async stats() {
      const all = saved;
      await new Promise((resolve) => setTimeout(resolve, 150));
      return { entries: all.length, authors: new Set(all.map((entry) => entry.name.toLowerCase())).size };
    },
  };
}

/** A `GUESTBOOK_FILE` the store cannot start from: the message says why. */
export class GuestbookFileError extends Error {
  override readonly name = 'GuestbookFileError';
}

function readEntries(file: string): Entry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new GuestbookFileError(`cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    throw new GuestbookFileError('is not JSON');
  }
  if (!Array.isArray(stored)) throw new GuestbookFileError('is not a JSON list of entries');
  return stored.map(toEntry);
}

/** One stored entry, checked field by field: the file may have been edited by hand. */
function toEntry(value: unknown, index: number): Entry {
  const entry = (typeof value === 'object' && value !== null ? value : {}) as Partial<Record<keyof StoredEntry, unknown>>;
  const { id, name, message, createdAt, likes = 0 } = entry;
  const date = typeof createdAt === 'string' ? new Date(createdAt) : undefined;
  if (
    typeof id !== 'string' ||
    typeof name !== 'string' ||
    typeof message !== 'string' ||
    date === undefined ||
    Number.isNaN(date.getTime()) ||
    !Number.isSafeInteger(likes) ||
    (likes as number) < 0
  ) {
    throw new GuestbookFileError(`has an entry (number ${index + 1}) without a text id, name and message, a date, and a count of likes`);
  }
  return { id, name, message, createdAt: date, likes: likes as number };
}
