import { Suspense, use } from 'react';
import type { PageHead } from '../../shared/api/head.ts';
import type { PageProps } from '../../shared/api/route-definition.ts';
import { MANY_DEFERRED_COUNT, MANY_DEFERRED_MARKER, STREAMING_TITLE, SUSPENSE_DELAY_MS } from './suspense-fixture.ts';

export interface ManyDeferredData {
  /** Each settles with its index, all in the same turn after the Suspense page's delay: the rows of one slow query. */
  readonly values: readonly Promise<number>[];
}

export const head: PageHead = { title: STREAMING_TITLE };

export function load(): ManyDeferredData {
  const settle: ((index: number) => void)[] = [];
  const values = Array.from({ length: MANY_DEFERRED_COUNT }, () => new Promise<number>((resolve) => settle.push(resolve)));
  setTimeout(() => {
    for (const [index, resolve] of settle.entries()) resolve(index);
  }, SUSPENSE_DELAY_MS);
  return { values };
}

function Last({ value }: { readonly value: Promise<number> | undefined }) {
  return <p>{`${MANY_DEFERRED_MARKER} ${value === undefined ? '' : use(value)}`}</p>;
}

/** One boundary reads the last value; the others stream into the page's data, read by no component. */
export default function ManyDeferredPage({ data }: PageProps<ManyDeferredData>) {
  return (
    <main className="app-main">
      <h1>Streaming</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <Last value={data.values.at(-1)} />
      </Suspense>
    </main>
  );
}
