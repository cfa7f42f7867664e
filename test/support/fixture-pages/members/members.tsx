import type { LayoutHead } from '../../../../shared/api/head.ts';
import { Form } from '../../../../shared/api/form.tsx';
import { Link } from '../../../../shared/api/link.tsx';
import type { LoadContext } from '../../../../shared/api/route-definition.ts';
import { Outlet, useLoaderData } from '../../../../shared/api/route-hooks.tsx';
import { unauthorized } from '../../../../shared/api/status-helpers.ts';
import { memberSessions } from './member-session.ts';

export const head: LayoutHead = { titleTemplate: '%s · Members' };

/** The guard of every page inside: 401 without a session. */
export async function load({ request }: LoadContext): Promise<{ readonly name: string }> {
  const name = (await memberSessions.getSession(request.headers.get('cookie'))).get('name');
  if (name === undefined) unauthorized();
  return { name };
}

/** The members' layout: who is signed in, a link that fetches the account's data on hover, and a sign-out sent in place. */
export default function Members() {
  const { name } = useLoaderData<typeof load>();
  return (
    <div>
      <header>
        <p id="signed-in">Signed in as {name}</p>
        <Link id="to-account" href="/members/account" prefetch="data">
          Your account
        </Link>
        <Form method="post" action="/members/signed-out" aria-label="Sign out">
          <button type="submit" id="sign-out">
            Sign out
          </button>
        </Form>
      </header>
      <Outlet />
    </div>
  );
}
