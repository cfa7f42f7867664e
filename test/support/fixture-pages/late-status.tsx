import { Suspense, use } from 'react';
import type { PageProps } from '../../../shared/api/route-definition.ts';
import { notFound } from '../../../shared/api/status-helpers.ts';
import { createSettleAfter } from '../settle-after.ts';

export interface LateStatusData {
  /** Where the boundary calls notFound(): on the server only (the browser's retry renders), or on both sides. */
  readonly where: 'server' | 'both';
}

const settleAfter = createSettleAfter<string>();

function LateContent({ data }: { readonly data: LateStatusData }) {
  const text = use(
    settleAfter(data, 50, () => {
      if (data.where === 'both' || typeof window === 'undefined') notFound();
      return 'LATE-CONTENT';
    }),
  );
  return <p id="late">{text}</p>;
}

/** A boundary that calls notFound() 50 ms in: after a browser's shell (and its 200) was sent. */
export default function LateStatusPage({ data }: PageProps<LateStatusData>) {
  return (
    <main>
      <h1 id="shell">Late status page</h1>
      <Suspense fallback={<p id="fallback">Loading…</p>}>
        <LateContent data={data} />
      </Suspense>
    </main>
  );
}
