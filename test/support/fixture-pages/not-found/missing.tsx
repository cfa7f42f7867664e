import type { PageHead } from '../../../../shared/api/head.ts';
import type { LoadContext } from '../../../../shared/api/route-definition.ts';
import { useLoaderData } from '../../../../shared/api/route-hooks.tsx';

export const head: PageHead = { title: 'Nothing here' };

export function load({ params }: LoadContext) {
  return { path: params.path ?? '' };
}

/** The layout's not-found page: the address the visitor asked for, inside the frame. */
export default function Missing() {
  const { path } = useLoaderData<typeof load>();
  return (
    <main>
      <h1>Nothing at /{path}</h1>
    </main>
  );
}
