import { Suspense, use } from 'react';
import { type LayoutHead, Link, type LoadContext, Outlet, useLoaderData } from 'react-stream-shell';
import { RouteErrorDetail } from '../components/route-error-detail.tsx';
import type { GuestbookStats } from '../guestbook/store.server.ts';
import '../guestbook/guestbook.css';

/** Every page of the section says where it is: `Ada's entry · Guest book · React Stream Shell`. */
export const head: LayoutHead = { titleTemplate: '%s · Guest book', title: 'Guest book', description: 'Leave a word for the next visitor.' };

/**
 * The section's statistic, not awaited: every page of the section goes out at once and the
 * figure streams in. Moving between the list and an entry keeps it; a post loads it again.
 */
export function load({ context }: LoadContext) {
  return { stats: context.guestbook.stats() };
}

function Stats({ stats }: { readonly stats: Promise<GuestbookStats> }) {
  const { entries, authors } = use(stats);
  return (
    <>
      {entries} {entries === 1 ? 'entry' : 'entries'} by {authors} {authors === 1 ? 'author' : 'authors'}
    </>
  );
}

/** The guest book's section layout: its navigation and statistic above each of its pages. */
export default function GuestbookLayout() {
  const { stats } = useLoaderData<typeof load>();
  return (
    <div className="guestbook-section">
      <nav aria-label="Guest book" className="section-nav">
        <Link href="/guestbook">All entries</Link>{' '}
        <span id="guestbook-stats">
          <Suspense fallback="Counting entries…">
            <Stats stats={stats} />
          </Suspense>
        </span>
      </nav>
      <Outlet />
    </div>
  );
}

/** A page of the section that failed (its list could not be read): said in the section's place, with a way back. */
export function ErrorBoundary() {
  return (
    <main className="app-main guestbook">
      <h1>The guest book could not be shown</h1>
      <RouteErrorDetail />
    </main>
  );
}
