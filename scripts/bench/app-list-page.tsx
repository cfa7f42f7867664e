import { Suspense, use } from 'react';
import { useFetcher } from '../../shared/api/fetcher.tsx';
import type { PageHead } from '../../shared/api/head.ts';
import type { PageProps } from '../../shared/api/route-definition.ts';
import { APP_LIST_DEFERRED_MS, APP_LIST_MARKER, APP_LIST_PATH, appListItems, type AppListItem } from './app-list-fixture.ts';

export const head: PageHead = { title: 'App list' };

export interface AppListData {
  readonly items: readonly AppListItem[];
  /** Settles after APP_LIST_DEFERRED_MS; the shell does not wait for it. */
  readonly summary: Promise<string>;
}

export function load(): AppListData {
  return { items: appListItems(), summary: new Promise((resolve) => setTimeout(resolve, APP_LIST_DEFERRED_MS, APP_LIST_MARKER)) };
}

/** What the fetcher buttons post to: nothing is stored, the page only needs an action to post to. */
export function action() {
  return { liked: true };
}

function LikeItem({ item }: { readonly item: AppListItem }) {
  const fetcher = useFetcher<typeof action>();
  return (
    <li>
      {item.title}{' '}
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

/** The list, a fetcher button per item, and the deferred summary below it. */
export default function AppListPage({ data }: PageProps<AppListData>) {
  return (
    <main className="app-main">
      <h1>App list</h1>
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
