import { redirect } from '../../../../shared/api/action-helpers.ts';
import type { PageHead } from '../../../../shared/api/head.ts';
import { Link } from '../../../../shared/api/link.tsx';
import type { ActionContext } from '../../../../shared/api/route-definition.ts';
import { memberSessions } from './member-session.ts';

export const head: PageHead = { title: 'Signed out' };

/** The sign-out the members' layout posts: the session's cookie is removed, then this page. */
export async function action({ request }: ActionContext) {
  const session = await memberSessions.getSession(request.headers.get('cookie'));
  redirect('/members/signed-out', { headers: { 'Set-Cookie': await memberSessions.destroySession(session) } });
}

export default function SignedOut() {
  return (
    <main>
      <h1>Signed out</h1>
      <Link id="to-sign-in" href="/members/sign-in">
        Sign in again
      </Link>
      <Link id="to-account" href="/members/account" prefetch="none">
        Your account
      </Link>
    </main>
  );
}
