import { Suspense } from 'react';
import { Await, useAsyncError } from '../../../shared/api/await.tsx';
import type { PageProps } from '../../../shared/api/route-definition.ts';
import { useRouteError } from '../../../shared/api/route-errors.tsx';

export interface AwaitData {
  readonly kept: Promise<string>;
  /** Rejects on the server; the browser gets its digest. */
  readonly broken: Promise<string>;
}

function BrokenValue() {
  const error = useAsyncError();
  const digest: unknown = typeof error === 'object' && error !== null ? Reflect.get(error, 'digest') : undefined;
  return <p id="await-error">Could not load. Digest: {String(digest)}</p>;
}

/** A value that settles and one that rejects, each in an `<Await>`; the rejected one has its own error element. */
export default function AwaitPage({ data }: PageProps<AwaitData>) {
  return (
    <main>
      <h1>Await</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <Await resolve={data.kept}>{(value) => <p id="await-kept">{value}</p>}</Await>
      </Suspense>
      <Suspense fallback={<p id="await-fallback">Loading the broken value…</p>}>
        <Await resolve={data.broken} errorElement={<BrokenValue />}>
          {(value) => <p id="await-value">{value}</p>}
        </Await>
      </Suspense>
    </main>
  );
}

/** The route's boundary, which the error element keeps from showing. */
export function ErrorBoundary() {
  useRouteError();
  return <p id="route-boundary">The page failed.</p>;
}
