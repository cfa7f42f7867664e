import { Suspense, use } from 'react';
import { useFetcher } from '../../shared/api/fetcher.tsx';
import type { PageHead } from '../../shared/api/head.ts';
import { Link } from '../../shared/api/link.tsx';
import type { LoadContext, PageProps } from '../../shared/api/route-definition.ts';
import { APP_LIST_DEFERRED_MS, APP_LIST_MARKER, APP_LIST_PATH, appDetailPath, appListItems, visitorLine, type AppListItem } from './app-list-fixture.ts';
import { sessionVisitor } from './app-visitor-session.ts';

export const head: PageHead = { title: 'App list' };

export interface AppListData {
  readonly items: readonly AppListItem[];
  /** Settles after APP_LIST_DEFERRED_MS; the shell does not wait for it. */
  readonly summary: Promise<string>;
  /** The signed-in visitor's name, from the session cookie. */
  readonly visitor: string | null;
}

export async function load({ request }: LoadContext): Promise<AppListData> {
  return {
    items: appListItems(),
    summary: new Promise((resolve) => setTimeout(resolve, APP_LIST_DEFERRED_MS, APP_LIST_MARKER)),
    visitor: await sessionVisitor(request.headers.get('cookie')),
  };
}

/** What the fetcher buttons post to: nothing is stored, the page only needs an action to post to. */
export function action() {
  return { liked: true };
}

function LikeItem({ item }: { readonly item: AppListItem }) {
  const fetcher = useFetcher<typeof action>();
  return (
    <li>
      <Link href={appDetailPath(item.id)}>{item.title}</Link>{' '}
      <fetcher.Form action={APP_LIST_PATH}>
        <input type="hidden" name="id" value={item.id} />
        <button type="submit">♥ {item.likes}</button>
      </fetcher.Form>
    </li>
  );
}

function Summary({ summary }: { readonly summary: Promise<string> }) {
  return <p>{use(summary)}</p>;
}

/** The visitor, the list with a link and a fetcher button per item, and the deferred summary below it. */
export default function AppListPage({ data }: PageProps<AppListData>) {
  return (
    <main className="app-main">
      <h1>App list</h1>
      <p>{visitorLine(data.visitor)}</p>
      <ul>
        {data.items.map((item) => (
          <LikeItem key={item.id} item={item} />
        ))}
      </ul>
      <Suspense fallback={<p>Loading…</p>}>
        <Summary summary={data.summary} />
      </Suspense>
    </main>
  );
}
