import { Suspense, use } from 'react';
import type { PageProps } from '../../../shared/api/route-definition.ts';
import { createSettleAfter } from '../settle-after.ts';

const settleAfter = createSettleAfter<never>();

function Failing({ data }: { readonly data: object }) {
  use(
    settleAfter(data, 30, () => {
      throw new Error('boundary failed on both sides');
    }),
  );
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
