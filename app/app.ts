import { defineApp, readSecret } from '../server/app-definition.ts';
import { createCookieSessionStorage } from '../server/sessions/cookie-session.ts';
import { APP_NAME } from '../shared/app-info.ts';
import type { SessionFields } from './context.ts';
import { createGuestbookStore } from './guestbook/store.server.ts';
import { routes } from './routes.ts';

const WEEK_SECONDS = 7 * 24 * 60 * 60;

/**
 * The app: what the framework serves (docs/building-an-app.md). The production entry,
 * `npm run dev`, the image and the app's tests all start from this declaration.
 */
export default defineApp({
  routes,
  site: { name: APP_NAME, description: 'A guest book streamed by React 19 from Express 5.' },
  // Read once at start; a bad value stops the start naming the variable.
  settings: (env) => ({
    guestbook: createGuestbookStore(env.GUESTBOOK_FILE || undefined),
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
  getLoadContext: async (req, _res, { guestbook, sessions, admins }) => ({
    guestbook,
    sessions,
    admins,
    session: await sessions.getSession(req.get('cookie')),
  }),
});
