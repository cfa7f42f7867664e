import { Suspense, use } from 'react';
import type { LoadContext, PageProps } from '../../shared/api/route-definition.ts';
import { createSettleAfter } from './settle-after.ts';

const settleAfter = createSettleAfter<string>();

export interface SlowData {
  readonly delayMs: number;
}

/** Longest delay a test may ask for: a typo must not hold a test for minutes. */
const MAX_DELAY_MS = 60_000;

/** `?ms=1500`: how long the boundary waits; 1000 ms when absent. */
export function loadSlowData({ searchParams }: LoadContext): SlowData {
  const ms = Number(searchParams.get('ms') ?? 1_000);
  return { delayMs: Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_DELAY_MS) : 1_000 };
}

function SlowBoundary({ data }: { readonly data: SlowData }) {
  return <p id="slow">{use(settleAfter(data, data.delayMs, () => 'SLOW-BOUNDARY-CONTENT'))}</p>;
}

/** Server-only page (no client bundle): the shell at once, one boundary after `delayMs`. */
export function SlowPage({ data }: PageProps<SlowData>) {
  return (
    <main>
      <h1>SLOW-SHELL</h1>
      <Suspense fallback={<p id="fallback">SLOW-FALLBACK</p>}>
        <SlowBoundary data={data} />
      </Suspense>
    </main>
  );
}
