import { Suspense, use } from 'react';
import type { PageProps } from '../../../shared/route-definition.ts';

const pending = new WeakMap<object, Promise<never>>();

function failing(key: object): Promise<never> {
  let promise = pending.get(key);
  if (promise === undefined) {
    promise = new Promise((_resolve, reject) => setTimeout(() => reject(new Error('boundary failed on both sides')), 30));
    pending.set(key, promise);
  }
  return promise;
}

function Failing({ data }: { readonly data: object }) {
  use(failing(data));
  return null;
}

/** A boundary that fails on the server (digest) and again when the client retries it. */
export default function BoundaryThrowPage({ data }: PageProps<{ readonly kind: 'boundary' }>) {
  return (
    <main>
      <h1>Boundary page</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <Failing data={data} />
      </Suspense>
    </main>
  );
}
