import type { PageHead } from '../../../../shared/api/head.ts';

export const head: PageHead = { title: 'Deep' };

/** Below `/nav-links/one`: its NavLink is active here too. */
export default function Deep() {
  return (
    <main>
      <h1>Deep</h1>
    </main>
  );
}
