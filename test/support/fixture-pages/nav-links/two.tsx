import type { PageHead } from '../../../../shared/api/head.ts';
import type { LoadContext } from '../../../../shared/api/route-definition.ts';

export const head: PageHead = { title: 'Two' };

/** Slow when asked (`?delay=ms`, at most 3 s): the move there is pending long enough to be seen. */
export async function load({ searchParams }: LoadContext): Promise<null> {
  const delay = Math.min(Number(searchParams.get('delay') ?? 0) || 0, 3000);
  await new Promise((done) => setTimeout(done, delay));
  return null;
}

export default function Two() {
  return (
    <main>
      <h1>Two</h1>
    </main>
  );
}
