import { forbidden, Link, type PageHead, unauthorized } from 'react-stream-shell';
import type { Route } from './+types/admin.ts';

export const head: PageHead = { title: 'Admin', robots: 'noindex' };

/** The guard: 401 without a session, 403 for a reader; an admin sees the book's figures. */
export async function load({ context }: Route.LoadContext) {
  const visitor = context.session.get('visitor');
  if (visitor === undefined) unauthorized();
  if (visitor.role !== 'admin') forbidden();
  const entries = await context.guestbook.list();
  return { name: visitor.name, entries: entries.length, latest: entries[0]?.createdAt };
}

export default function AdminPage({ data }: Route.PageProps) {
  return (
    <main className="app-main">
      <h1>Admin</h1>
      <p id="admin-summary">
        Signed in as {data.name}. The guest book holds {data.entries} {data.entries === 1 ? 'entry' : 'entries'}
        {data.latest === undefined ? '' : `, the latest from ${data.latest.toUTCString()}`}.
      </p>
      <p>
        <Link href="/api/entries">The entries as JSON</Link>
      </p>
    </main>
  );
}
