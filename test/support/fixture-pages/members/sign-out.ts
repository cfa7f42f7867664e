import { redirect } from '../../../../shared/api/action-helpers.ts';
import type { ActionContext } from '../../../../shared/api/route-definition.ts';
import { memberSessions } from './member-session.ts';

/**
 * A sign-out as a resource route (no component, an action alone): the session's cookie is
 * removed and the visitor sent to the signed-out page, which a `<Form>` follows in place.
 */
export async function action({ request }: ActionContext): Promise<Response> {
  const session = await memberSessions.getSession(request.headers.get('cookie'));
  redirect('/members/signed-out', { headers: { 'Set-Cookie': await memberSessions.destroySession(session) } });
}
