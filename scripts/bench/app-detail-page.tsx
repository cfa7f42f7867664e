import { HttpError } from '../../shared/api/http-error.ts';
import type { PageHead } from '../../shared/api/head.ts';
import { Link } from '../../shared/api/link.tsx';
import type { LoadContext, PageProps } from '../../shared/api/route-definition.ts';
import { APP_LIST_PATH, appListItem, visitorLine, type AppListItem } from './app-list-fixture.ts';
import { sessionVisitor } from './app-visitor-session.ts';

export interface AppDetailData {
  readonly item: AppListItem;
  /** The signed-in visitor's name, from the session cookie. */
  readonly visitor: string | null;
}

/** One item of the list; an id the list does not have is a 404. */
export async function load({ params, request }: LoadContext<{ readonly id: string }>): Promise<AppDetailData> {
  const item = appListItem(params.id);
  if (item === undefined) throw new HttpError(404);
  return { item, visitor: await sessionVisitor(request.headers.get('cookie')) };
}

/** The head from the page's data, as a detail page's is. */
export function head({ item }: AppDetailData): PageHead {
  return { title: item.title, description: `${item.title}, liked ${item.likes} times.` };
}

/** The item's page inside the two layouts: its title, its likes, the way back to the list. */
export default function AppDetailPage({ data }: PageProps<AppDetailData>) {
  const { item, visitor } = data;
  return (
    <main className="app-main">
      <h1>{item.title}</h1>
      <p>{visitorLine(visitor)}</p>
      <p>
        Liked {item.likes} times. <Link href={APP_LIST_PATH}>Back to the list</Link>
      </p>
    </main>
  );
}
