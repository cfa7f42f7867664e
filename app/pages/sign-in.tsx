import { Form, invalid, type InvalidData, type PageHead, redirect } from 'react-stream-shell';
import { TextField } from '../components/text-field.tsx';
import { nameError } from '../visitor-name.ts';
import type { Route } from './+types/sign-in.ts';

export const head: PageHead = { title: 'Sign in', robots: 'noindex' };

/**
 * Signs in under a name and stores it in the session cookie: an admin when the name is one of
 * `GUESTBOOK_ADMINS`, sent on to the admin page, a reader to the guest book. A demonstration of
 * sessions, not of authentication: a real app checks a password or a provider here, and keeps
 * the rest as it is. Signing out is a resource route's (app/api/sign-out.ts).
 */
export async function action({ body, context }: Route.ActionContext) {
  const { session, sessions, admins } = context;
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  const error = nameError(name);
  if (error !== undefined) return invalid({ name: error }, { name });
  const role = admins.has(name.toLowerCase()) ? 'admin' : 'reader';
  session.set('visitor', { name, role });
  redirect(role === 'admin' ? '/admin' : '/guestbook', { headers: { 'Set-Cookie': await sessions.commitSession(session) } });
}

function isFailure(value: unknown): value is InvalidData<{ name?: string }, { name: string }> {
  return typeof value === 'object' && value !== null && 'errors' in value;
}

export default function SignInPage({ actionData }: Route.PageProps) {
  const failed = isFailure(actionData) ? actionData : undefined;
  const error = failed?.errors.name;
  return (
    <main className="app-main">
      <h1 id="sign-in-heading">Sign in</h1>
      <Form method="post" aria-labelledby="sign-in-heading" noValidate>
        <TextField name="name" label="Name" autoComplete="username" value={failed?.values?.name} error={error} />
        <button type="submit">Sign in</button>
      </Form>
    </main>
  );
}
