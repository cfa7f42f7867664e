import type { PageHead } from '../../../../shared/api/head.ts';
import type { LoadContext, PageProps } from '../../../../shared/api/route-definition.ts';
import { unauthorized } from '../../../../shared/api/status-helpers.ts';
import { memberSessions } from './member-session.ts';

export const head: PageHead = { title: 'Account' };

/** Guarded by its own load, outside the members' layout: a prefetch of it is the whole page. */
export async function load({ request }: LoadContext): Promise<{ readonly name: string }> {
  const name = (await memberSessions.getSession(request.headers.get('cookie'))).get('name');
  if (name === undefined) unauthorized();
  return { name };
}

export default function Account({ data }: PageProps<{ readonly name: string }>) {
  return (
    <main>
      <h1>Account</h1>
      <p id="account-of">The account of {data.name}</p>
    </main>
  );
}
