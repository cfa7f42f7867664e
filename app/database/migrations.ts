import { GUESTBOOK_MIGRATIONS } from '../guestbook/migrations/index.ts';
import { sessions } from '../sessions/migrations/0002-sessions.ts';
import type { Migration } from './migrate.ts';

/**
 * Every table of the app, step by step, as onStart applies them (docs/building-an-app.md#data).
 * Each feature keeps its steps beside it; their numbers run across the whole app, since
 * `migrate` orders them by name, and a new one takes the next number.
 */
export const APP_MIGRATIONS: readonly Migration[] = [...GUESTBOOK_MIGRATIONS, sessions];
