import type { PageHead } from '../../../../shared/api/head.ts';

export const head: PageHead = { title: 'Board' };

/** The board's own page: no-store, as every page by default. */
export default function BoardPage() {
  return (
    <main>
      <h1>Board</h1>
    </main>
  );
}
