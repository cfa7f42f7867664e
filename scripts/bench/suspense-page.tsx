import { Suspense, use } from 'react';
import type { PageHead } from '../../shared/api/head.ts';
import type { PageProps } from '../../shared/api/route-definition.ts';
import { STREAMING_TITLE, SUSPENSE_DELAY_MS, SUSPENSE_MARKER } from './suspense-fixture.ts';

export interface SuspenseData {
  readonly delayMs: number;
}

export const head: PageHead = { title: STREAMING_TITLE };

/** The data: how long the boundary waits. A new object per request, as every `load` makes. */
export function load(): SuspenseData {
  return { delayMs: SUSPENSE_DELAY_MS };
}

/**
 * Fizz retries a suspended component from scratch, so the promise must outlive one attempt.
 * Keyed by the request's data object (the same object on every retry, a new one per request),
 * it is made once per request and collected with it. In the browser the data object is the
 * one the page's data script built, so hydration waits the same delay for the same text.
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

/**
 * The benchmark's streaming page (a page module: the fixture build hydrates it): a shell, then
 * one boundary that suspends on a promise the component makes itself, nothing serialized for it.
 */
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

export default SuspensePage;
