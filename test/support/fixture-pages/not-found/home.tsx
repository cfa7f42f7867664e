import type { PageHead } from '../../../../shared/api/head.ts';

export const head: PageHead = { title: 'Not-found home' };

export default function NotFoundHome() {
  return (
    <main>
      <h1>Not-found home</h1>
    </main>
  );
}
