import type { PageHead } from '../../../../shared/api/head.ts';
import type { PageProps } from '../../../../shared/api/route-definition.ts';

export const head: PageHead = { title: 'Private' };

export function load(): { readonly figures: string } {
  return { figures: 'The members’ figures: 42' };
}

/** A page only a member may see, inside the members' layout; answered no-store, as every page by default. */
export default function Private({ data }: PageProps<{ readonly figures: string }>) {
  return (
    <main>
      <h1>Private</h1>
      <p id="figures">{data.figures}</p>
    </main>
  );
}
