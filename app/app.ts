import { ConfigError, createCookieSessionStorage, defineApp, type Environment, readSecret } from 'react-stream-shell/server';
import { SITE_NAME } from './site.ts';
import type { SessionFields } from './context.ts';
import { createGuestbookStore, GuestbookFileError, type GuestbookStore } from './guestbook/store.server.ts';
import { routes } from './routes.ts';

const WEEK_SECONDS = 7 * 24 * 60 * 60;

/** The guest book from `GUESTBOOK_FILE`: a file it cannot start from is a bad setting, so the start stops naming it. */
function openGuestbook(env: Environment): GuestbookStore {
  const file = env.GUESTBOOK_FILE?.trim() || undefined;
  try {
    return createGuestbookStore(file);
  } catch (error) {
    if (error instanceof GuestbookFileError)
      throw new ConfigError('GUESTBOOK_FILE', file ?? '', `a JSON file of guest book entries, or a path where none is yet; this one ${error.message}`);
    throw error;
  }
}

/**
 * The app: what the framework serves (docs/building-an-app.md). The production entry,
 * `npm run dev`, the image and the app's tests all start from this declaration.
 */
export default defineApp({
  routes,
  site: { name: SITE_NAME, description: 'A guest book streamed by React 19 from Express 5.' },
  // Read once at start; a bad value stops the start naming the variable.
  settings: (env) => ({
    guestbook: openGuestbook(env),
    sessions: createCookieSessionStorage<SessionFields>({
      cookie: { name: '__session', secrets: [readSecret(env, 'SESSION_SECRET')], maxAge: WEEK_SECONDS, secure: env.NODE_ENV !== 'development' },
    }),
    admins: new Set(
      (env.GUESTBOOK_ADMINS ?? '')
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .filter(Boolean),
    ),
  }),
  // Once per request, before load or action: the session from the request's cookie.
  getLoadContext: async ({ request }, { guestbook, sessions, admins }) => ({
    guestbook,
    sessions,
    admins,
    session: await sessions.getSession(request.headers.get('cookie')),
  }),
});
