import { useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { AppRoot } from '../shared/app-root.tsx';
import type { PageComponent } from '../shared/route-definition.ts';
import { readPageData } from './page-data.ts';

/** The element the server renders the page into; see server/document.tsx. */
const ROOT_ID = 'root';

/** Marks the root once React has attached, so tests (and people) can tell it happened. */
function HydrationMarker({ root }: { readonly root: HTMLElement }) {
  useEffect(() => {
    root.setAttribute('data-hydrated', '');
  }, [root]);
  return null;
}

function logCaught(error: unknown): void {
  console.error(error);
}

/** Hydrates `#root` with the same tree the server rendered for this page. */
export function hydratePage(Page: PageComponent): void {
  const root = document.getElementById(ROOT_ID);
  if (root === null) throw new Error(`#${ROOT_ID} is missing: the server did not render a page`);
  const { data, params } = readPageData(document);
  hydrateRoot(
    root,
    <AppRoot onError={logCaught}>
      <Page data={data} params={params} />
      <HydrationMarker root={root} />
    </AppRoot>,
  );
}
