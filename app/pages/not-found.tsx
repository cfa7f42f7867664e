import { Link, type LoadContext, type LoadedData, type PageHead, type PageProps } from 'react-stream-shell';

export const head: PageHead = { title: 'Page not found' };

/** The address asked for, as the visitor typed it (the rest of the path, from `/`). */
export function load({ params }: LoadContext) {
  return { path: `/${params.path ?? ''}` };
}

/**
 * The root layout's not-found page (`notFound` in routes.ts): any address no route has shows this
 * inside the site's header and footer, with status 404. JSON clients, other methods and missing
 * built files get the framework's plain 404 instead.
 */
export default function NotFoundPage({ data }: PageProps<LoadedData<typeof load>>) {
  return (
    <main className="app-main">
      <h1>Page not found</h1>
      <p>
        Nothing lives at <code>{data.path}</code>. Try the <Link href="/">home page</Link> or the <Link href="/guestbook">guest book</Link>.
      </p>
    </main>
  );
}
