import type { PageHead } from '../../../../shared/api/head.ts';

export const head: PageHead = { title: 'One' };

export default function One() {
  return (
    <main>
      <h1>One</h1>
    </main>
  );
}
