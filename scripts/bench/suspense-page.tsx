import { Suspense, use } from 'react';
import type { PageProps } from '../../shared/route-definition.ts';
import { SUSPENSE_MARKER } from './suspense-fixture.ts';


export interface SuspenseData {
  readonly delayMs: number;
}

/**
 * Fizz retries a suspended component from scratch, so the promise must outlive one attempt.
 * Keyed by the request's data object (the same object on every retry, a new one per request),
 * it is made once per request and collected with it.
 */
const pending = new WeakMap<SuspenseData, Promise<string>>();

function resolveLater(data: SuspenseData): Promise<string> {
  let promise = pending.get(data);
  if (promise === undefined) {
    promise = new Promise((resolve) => setTimeout(resolve, data.delayMs, SUSPENSE_MARKER));
    pending.set(data, promise);
  }
  return promise;
}

function DelayedContent({ data }: { readonly data: SuspenseData }) {
  return <p>{use(resolveLater(data))}</p>;
}

/** The benchmark's streaming page: a shell, then one boundary that resolves after a delay. */
export function SuspensePage({ data }: PageProps<SuspenseData>) {
  return (
    <main className="app-main">
      <h1>Streaming</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <DelayedContent data={data} />
      </Suspense>
    </main>
  );
}
