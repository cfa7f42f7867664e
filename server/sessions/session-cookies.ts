import { parseCookie } from 'cookie';

/**
 * The names of the cookies that carry a session, as each session storage is made
 * (cookie-session.ts). An answer to a request that carries one may hold that visitor's data, so
 * no shared cache may keep it (docs/responses.md#caching): the framework makes such an answer
 * private whatever a route asked for. Storages are made once, at start: a set that only grows.
 */
const names = new Set<string>();

/** Called by a session storage for the cookie it reads. */
export function noteSessionCookie(name: string): void {
  names.add(name);
}

/** Whether a request's `Cookie` header carries a session cookie of any storage the app made. */
export function carriesSession(cookieHeader: string | undefined): boolean {
  if (cookieHeader === undefined || names.size === 0) return false;
  const cookies = parseCookie(cookieHeader);
  for (const name of names) if (cookies[name] !== undefined) return true;
  return false;
}
