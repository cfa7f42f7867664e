import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
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
 */
export function createGuestbookStore(file?: string): GuestbookStore {
  let entries: Promise<readonly Entry[]> = file === undefined ? Promise.resolve([]) : readEntries(file);
  let writes: Promise<void> = Promise.resolve();

  async function persist(all: readonly Entry[]): Promise<void> {
    if (file === undefined) return;
    const stored: StoredEntry[] = all.map((entry) => ({ ...entry, createdAt: entry.createdAt.toISOString() }));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(`${file}.tmp`, `${JSON.stringify(stored, null, 2)}\n`);
    await rename(`${file}.tmp`, file);
  }

  /** Applies one change to the entries and saves them. Chained before any await, so two posts at once take turns and neither is lost. */
  async function change<Result>(apply: (all: readonly Entry[]) => { readonly all: readonly Entry[]; readonly result: Result }): Promise<Result> {
    const changed = entries.then(apply);
    entries = changed.then(({ all }) => all);
    const saved = writes.then(async () => persist((await changed).all));
    writes = saved.catch(() => undefined);
    await saved;
    return (await changed).result;
  }

  return {
    async list() {
      return [...(await entries)].reverse();
    },
    async find(id) {
      return (await entries).find((entry) => entry.id === id);
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
      const all = await entries;
      await new Promise((resolve) => setTimeout(resolve, 150));
      return { entries: all.length, authors: new Set(all.map((entry) => entry.name.toLowerCase())).size };
    },
  };
}

async function readEntries(file: string): Promise<Entry[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const stored = JSON.parse(text) as StoredEntry[];
  return stored.map((entry) => ({ ...entry, createdAt: new Date(entry.createdAt), likes: entry.likes ?? 0 }));
}
