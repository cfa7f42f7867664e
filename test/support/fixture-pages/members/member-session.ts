import { createCookieSessionStorage } from '../../../../server/sessions/cookie-session.ts';

/** Who is signed in to the members' fixtures. */
export interface MemberFields {
  readonly name: string;
}

/**
 * The members' fixtures' sessions (docs/sessions.md): a signed cookie, as an app keeps them. The
 * secret is the fixture's own, never a deployment's; plain HTTP, so not `Secure`.
 */
export const memberSessions = createCookieSessionStorage<MemberFields>({
  cookie: { name: '__member', secrets: ['members fixture secret, never used anywhere else'], secure: false },
});
