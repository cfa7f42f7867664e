import { redirect } from '../../../../shared/api/action-helpers.ts';
import { Form } from '../../../../shared/api/form.tsx';
import type { PageHead } from '../../../../shared/api/head.ts';
import { Link } from '../../../../shared/api/link.tsx';
import type { ActionContext } from '../../../../shared/api/route-definition.ts';
import { memberSessions } from './member-session.ts';

export const head: PageHead = { title: 'Sign in' };

/** Signs in as the name sent, and goes on to the members' private page with the session's cookie. */
export async function action({ body, request }: ActionContext) {
  const session = await memberSessions.getSession(request.headers.get('cookie'));
  session.set('name', typeof body.name === 'string' && body.name !== '' ? body.name : 'Ada');
  redirect('/members/private', { headers: { 'Set-Cookie': await memberSessions.commitSession(session) } });
}

export default function SignIn() {
  return (
    <main>
      <h1 id="sign-in-heading">Sign in</h1>
      <Form method="post" aria-labelledby="sign-in-heading">
        <label htmlFor="member-name">Name</label>
        <input id="member-name" name="name" defaultValue="Ada" />
        <button type="submit" id="sign-in">
          Sign in
        </button>
      </Form>
      <Link id="to-notice" href="/members/notice">
        The public notice
      </Link>
    </main>
  );
}
