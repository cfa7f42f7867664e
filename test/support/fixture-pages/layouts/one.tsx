import type { PageHead } from '../../../../shared/api/head.ts';
import { useLoaderData } from '../../../../shared/api/route-hooks.tsx';
import { Filler } from '../nav-a.tsx';

export const head: PageHead = { title: 'One' };

export function load(): { readonly page: string } {
  return { page: 'one' };
}

export default function One() {
  const { page } = useLoaderData<typeof load>();
  return (
    <main>
      <h1>Page {page}</h1>
      <Filler from={page} />
    </main>
  );
}
