import type { PageHead } from '../../../../shared/api/head.ts';
import { useLoaderData } from '../../../../shared/api/route-hooks.tsx';
import { useRevalidator } from '../../../../shared/api/revalidator.ts';
import { Filler } from '../nav-a.tsx';

export const head: PageHead = { title: 'Two' };

export function load(): { readonly page: string; readonly loadedAt: Date } {
  return { page: 'two', loadedAt: new Date() };
}

/** Loads the page again by hand (`useRevalidator()`), with the time its load ran to see it happen. */
function Refresh({ loadedAt }: { readonly loadedAt: Date }) {
  const revalidator = useRevalidator();
  return (
    <p>
      <button type="button" id="refresh" onClick={() => void revalidator.revalidate()}>
        Refresh
      </button>{' '}
      <output id="refresh-state">{revalidator.state}</output> <output id="two-loaded-at">{loadedAt.toISOString()}</output>
    </p>
  );
}

export default function Two() {
  const { page, loadedAt } = useLoaderData<typeof load>();
  return (
    <main>
      <h1>Page {page}</h1>
      <Refresh loadedAt={loadedAt} />
      <Filler from={page} />
    </main>
  );
}
