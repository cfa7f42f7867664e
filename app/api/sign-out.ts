import { type ActionContext, redirect } from 'react-stream-shell';

/**
 * `POST /sign-out`, the header's sign-out button on every page: a resource route with an action
 * alone. The session is destroyed and the browser sent home; after hydration the form posts in
 * place and the redirect is followed in place (docs/navigation.md). The app keeps sessions in
 * their cookie, so destroying one clears the cookie and a copy of it kept elsewhere lasts until
 * its week ends; a store (createSessionStorage in app.ts) would delete the session itself.
 */
export async function action({ context }: ActionContext): Promise<Response> {
  const { session, sessions } = context;
  redirect('/', { headers: { 'Set-Cookie': await sessions.destroySession(session) } });
}
