import type { LoadContext } from 'react-stream-shell';

/** `GET /api/entries`: the guest book as JSON, newest first; a resource route (docs/responses.md). */
export async function load({ context }: LoadContext): Promise<Response> {
  const entries = await context.guestbook.list();
  return Response.json(
    { entries: entries.map(({ id, name, message, createdAt, likes }) => ({ id, name, message, createdAt: createdAt.toISOString(), likes })) },
    { headers: { 'Cache-Control': 'no-store' } },
  );
}
