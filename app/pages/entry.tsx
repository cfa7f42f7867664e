import { Link, type LoadedData, notFound, type PageHead, useActionData, useLoaderData, useParams } from 'react-stream-shell';
import { LikeButton } from '../components/like-button.tsx';
import { RouteErrorDetail } from '../components/route-error-detail.tsx';
import type { Route } from './+types/entry.ts';

export async function load({ params, context }: Route.LoadContext) {
  const entry = await context.guestbook.find(params.id);
  if (entry === undefined) notFound();
  return { entry };
}

/** A like (the like button's fetcher, app/components/like-button.tsx): the entry's new count. */
export async function action({ params, context }: Route.ActionContext) {
  const entry = await context.guestbook.like(params.id);
  if (entry === undefined) notFound();
  return { likes: entry.likes };
}

type Data = LoadedData<typeof load>;

/** The entry's head comes from its data: its author in the title, its message as the description. */
export function head(data: Data, params: Route.Params): PageHead {
  return {
    title: `${data.entry.name}'s entry`,
    description: data.entry.message.slice(0, 160),
    canonical: `/guestbook/${params.id}`,
    openGraph: { type: 'article' },
  };
}

/** Reads its data and parameter through the hooks, typed from `load` and the route's path in app/routes.ts. */
export default function EntryPage(_props: Route.PageProps) {
  const { entry } = useLoaderData<typeof load>();
  const { id } = useParams<Route.Params>();
  // Set when a like was posted without JavaScript, which shows this page again.
  const liked = useActionData<typeof action>();
  return (
    <main className="app-main guestbook">
      <h1>{entry.name} wrote</h1>
      <p className="entry-number">Entry {id}</p>
      <blockquote className="entry-message">{entry.message}</blockquote>
      <LikeButton id={entry.id} name={entry.name} likes={entry.likes} />
      {liked === undefined ? null : <p role="status">Thank you for the like.</p>}
      <p>
        On <time dateTime={entry.createdAt.toISOString()}>{entry.createdAt.toUTCString()}</time>. <Link href="/guestbook">Back to the guest book</Link>
      </p>
    </main>
  );
}

/** An entry that does not exist (404) or could not be read: said in the entry's place, inside the guest book's section. */
export function ErrorBoundary() {
  return (
    <main className="app-main guestbook">
      <h1>No such entry</h1>
      <RouteErrorDetail />
    </main>
  );
}
