import type { ActionContext } from '../../../../shared/api/route-definition.ts';
import { memberSessions } from './member-session.ts';

/** A resource route whose action answers with a file (JSON), no redirect: what the browser shows, or a fetcher reads. */
export async function action({ request }: ActionContext): Promise<Response> {
  const name = (await memberSessions.getSession(request.headers.get('cookie'))).get('name') ?? null;
  return Response.json({ exported: name });
}
