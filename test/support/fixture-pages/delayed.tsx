import { Suspense, use } from 'react';
import type { PageProps } from '../../../shared/api/route-definition.ts';
import { createSettleAfter } from '../settle-after.ts';

const settleAfter = createSettleAfter<string>();

export interface DelayedData {
  readonly delayMs: number;
}

function DelayedContent({ data }: { readonly data: DelayedData }) {
  return <p id="delayed">{use(settleAfter(data, data.delayMs, () => 'DELAYED-CONTENT'))}</p>;
}

/** Streams a fallback first, then content that resolves after `delayMs`. */
export default function DelayedPage({ data }: PageProps<DelayedData>) {
  return (
    <main>
      <h1 id="shell">Streaming shell</h1>
      <Suspense fallback={<p id="fallback">Loading…</p>}>
        <DelayedContent data={data} />
      </Suspense>
      <footer id="after">After the boundary</footer>
    </main>
  );
}
