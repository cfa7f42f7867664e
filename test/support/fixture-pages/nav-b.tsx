import type { PageHead } from '../../../shared/api/head.ts';
import { Link } from '../../../shared/api/link.tsx';
import type { PageProps } from '../../../shared/api/route-definition.ts';
import { useLoaderData } from '../../../shared/api/route-hooks.tsx';
import { Filler } from './nav-a.tsx';

export interface NavBData {
  readonly servedAt: string;
  /** From `?lang=`, for the document's language (`en` without it); `?dir=rtl` reads right to left. */
  readonly lang: string;
  readonly rtl: boolean;
}

export const head = (data: NavBData): PageHead => ({
  title: 'Page B',
  description: `The second page, served at ${data.servedAt}.`,
  lang: data.lang,
  ...(data.rtl ? { dir: 'rtl' } : {}),
});

/** Reads the page's data through the hook rather than props, as a component deep in a page would. */
function ServedAt() {
  const { servedAt } = useLoaderData<() => NavBData>();
  return <p id="served-at">{servedAt}</p>;
}

export default function NavB(_props: PageProps<NavBData>) {
  return (
    <main>
      <h1>Page B</h1>
      <ServedAt />
      <Link id="to-a" href="/nav/a">
        Back to page A
      </Link>
      <Filler from="B" />
      <h2 id="section">A section far down</h2>
      <Filler from="B, after the section," />
    </main>
  );
}
