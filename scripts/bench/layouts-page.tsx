import type { PageHead } from '../../shared/api/head.ts';
import { useLoaderData } from '../../shared/api/route-hooks.tsx';
import { contentData, LAYOUTS_MARKER, LAYOUTS_TITLE, type ContentData } from './layouts-fixture.ts';

export const head: PageHead = { title: LAYOUTS_TITLE };

/** The page's own data; its layouts load theirs at the same time. */
export function load(): ContentData {
  return contentData();
}

/** The bench's page inside two layouts (layout-root.tsx, layout-section.tsx): only its own part. */
export default function LayoutsPage() {
  const { items } = useLoaderData<typeof load>();
  return (
    <main className="app-main">
      <h1>{LAYOUTS_TITLE}</h1>
      <p>{LAYOUTS_MARKER}</p>
      <ul>
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </main>
  );
}
