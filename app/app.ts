import { defineApp } from 'react-stream-shell/server';
import { SITE_NAME } from './site.ts';
import { MigrationError, migrate } from './database/migrate.ts';
import { APP_MIGRATIONS } from './database/migrations.ts';
import { openDatabase } from './database/open.ts';
import { readDatabaseSettings } from './database/settings.ts';
import { createGuestbookStore } from './guestbook/store.server.ts';
import { routes } from './routes.ts';
import { createAppSessions } from './sessions/storage.ts';

/**
 * The app: what the framework serves (docs/building-an-app.md). The production entry,
 * `npm run dev`, the image and the app's tests all start from this declaration.
 */
export default defineApp({
  routes,
  site: { name: SITE_NAME, description: 'A guest book streamed by React 19 from Express 5.' },
  // Read once at start; a bad value stops the start naming the variable. The database is
  // opened here (a pool connects on its first query) and migrated in onStart.
  settings: (env) => {
    const database = openDatabase(readDatabaseSettings(env));
    return {
      database,
      guestbook: createGuestbookStore(database),
      // In the signed cookie, or with SESSION_STORE=database in the database's sessions table.
      sessions: createAppSessions(env, database),
      admins: new Set(
        (env.GUESTBOOK_ADMINS ?? '')
          .split(',')
          .map((name) => name.trim().toLowerCase())
          .filter(Boolean),
      ),
    };
  },
  // Before the server listens: the schema brought up to date. A migration that fails stops the start (exit 78).
  onStart: async ({ database }) => {
    try {
      await migrate(database, APP_MIGRATIONS);
    } catch (error) {
      if (error instanceof MigrationError) throw error;
      throw new MigrationError('(schema_migrations)', error);
    }
  },
  // /readyz answers 503 while the database does not answer a trivial query; /healthz stays 200.
  readinessCheck: { check: ({ database }) => database.ping() },
  // Once every answer is out: the pool's connections closed.
  onClose: ({ database }) => database.close(),
  // Once per request, before load or action: the session from the request's cookie.
  getLoadContext: async ({ request }, { guestbook, sessions, admins }) => ({
    guestbook,
    sessions,
    admins,
    session: await sessions.getSession(request.headers.get('cookie')),
  }),
});
