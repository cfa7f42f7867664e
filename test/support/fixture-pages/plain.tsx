import type { PageHead } from '../../../shared/api/head.ts';
import { Link } from '../../../shared/api/link.tsx';

export const head: PageHead = { title: 'Plain', description: 'A page without a stylesheet of its own.' };

/** A page that imports no CSS, linking to one that does: its navigation must bring the other's stylesheet. */
export default function Plain() {
  return (
    <main>
      <h1>Plain page</h1>
      <Link id="to-styled" href="/styles/styled">
        To the styled page
      </Link>
    </main>
  );
}
