import type { PageHead } from '../../../shared/head.ts';
import { Link } from '../../../shared/link.tsx';
import type { PageProps } from '../../../shared/route-definition.ts';
import { Filler } from './nav-a.tsx';

export interface NavBData {
  readonly servedAt: string;
}

export const head = (data: NavBData): PageHead => ({ title: 'Page B', description: `The second page, served at ${data.servedAt}.` });

export default function NavB({ data }: PageProps<NavBData>) {
  return (
    <main>
      <h1>Page B</h1>
      <p id="served-at">{data.servedAt}</p>
      <Link id="to-a" href="/nav/a">
        Back to page A
      </Link>
      <Filler from="B" />
      <h2 id="section">A section far down</h2>
      <Filler from="B, after the section," />
    </main>
  );
}
