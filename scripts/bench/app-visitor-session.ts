import { CSRF_COOKIE, issueToken } from '../../server/security/csrf.ts';
import { createCookieSessionStorage } from '../../server/sessions/cookie-session.ts';
import { LOCAL_CSRF_SECRET, LOCAL_SESSION_SECRET } from '../lib/spawn-entry.ts';
import { APP_VISITOR_NAME } from './app-list-fixture.ts';

interface BenchSession {
  readonly visitor: { readonly name: string };
}

/**
 * The app-shaped pages' sessions: a signed cookie, made by the framework's
 * `createCookieSessionStorage` with the SESSION_SECRET every bench server is started with
 * (spawn-entry.ts). Its own cookie name, so the app's `getLoadContext`, which reads `__session`,
 * does not verify the same cookie a second time.
 */
export const appSessions = createCookieSessionStorage<BenchSession>({ cookie: { name: '__bench_session', secrets: [LOCAL_SESSION_SECRET] } });

/** The signed-in visitor's name, from the request's session cookie, as a page's `load` reads it; null without a valid one. */
export async function sessionVisitor(cookieHeader: string | null): Promise<string | null> {
  const session = await appSessions.getSession(cookieHeader);
  return session.get('visitor')?.name ?? null;
}

/** `name=value` of a `Set-Cookie` value, as a browser sends it back. */
function pairOf(setCookie: string): string {
  return setCookie.split(';', 1)[0] ?? '';
}

/**
 * The `Cookie` header of a returning, signed-in visitor of the app-shaped pages: the session as
 * a sign-in writes it, and the form token a first visit was given (signed with the bench
 * servers' CSRF_SECRET). So every answer verifies both signatures, where a first visit would skip
 * the session and sign a fresh token instead.
 */
export async function appVisitorCookie(): Promise<string> {
  const session = await appSessions.getSession(null);
  session.set('visitor', { name: APP_VISITOR_NAME });
  return `${pairOf(await appSessions.commitSession(session))}; ${CSRF_COOKIE}=${issueToken(LOCAL_CSRF_SECRET)}`;
}
