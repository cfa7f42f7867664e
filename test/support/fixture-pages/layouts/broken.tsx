import { notFound } from '../../../../shared/api/status-helpers.ts';

/** `?missing` asks for a status helper's 404; otherwise the load throws. */
export function load({ searchParams }: { readonly searchParams: URLSearchParams }): never {
  if (searchParams.has('missing')) notFound();
  throw new Error('fixture: a page load inside the section failed');
}

export default function Broken() {
  return (
    <main>
      <h1>Never shown</h1>
    </main>
  );
}
