import { data, type LoadContext } from 'react-stream-shell';

/** `GET /api/entries`: the guest book as JSON, newest first; a resource route returning its data (docs/responses.md). */
export async function load({ context }: LoadContext) {
  const entries = await context.guestbook.list();
  return data(
    { entries: entries.map(({ id, name, message, createdAt, likes }) => ({ id, name, message, createdAt: createdAt.toISOString(), likes })) },
    { headers: { 'Cache-Control': 'no-store' } },
  );
}
