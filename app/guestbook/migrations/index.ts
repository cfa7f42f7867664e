import type { Migration } from '../../database/migrate.ts';
import { entries } from './0001-entries.ts';

/**
 * The guest book's schema, step by step (docs/building-an-app.md#data): a new step is a new
 * numbered file here, added at the end, never an edit of one that has shipped (a database that
 * applied it would not apply it again). Applied at start, before the server listens.
 */
export const GUESTBOOK_MIGRATIONS: readonly Migration[] = [entries];
