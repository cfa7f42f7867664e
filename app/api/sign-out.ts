import { type ActionContext, redirect } from 'react-stream-shell';

/**
 * `POST /sign-out`, the header's sign-out button on every page: a resource route with an action
 * alone. The session is destroyed and the browser sent home; after hydration the form posts in
 * place and the redirect is followed in place (docs/navigation.md). With the default cookie
 * store, destroying the session clears the cookie and a copy of it kept elsewhere lasts until its
 * week ends; with SESSION_STORE=database (app/sessions/) it deletes the session's row too, so the
 * copy is no session on any instance sharing the database.
 */
export async function action({ context }: ActionContext): Promise<Response> {
  const { session, sessions } = context;
  redirect('/', { headers: { 'Set-Cookie': await sessions.destroySession(session) } });
}
