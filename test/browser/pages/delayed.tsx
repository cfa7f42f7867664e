import { Suspense, use } from 'react';
import type { PageProps } from '../../../shared/route-definition.ts';

export interface DelayedData {
  readonly delayMs: number;
}

/**
 * One promise per page data object: the same object on every server retry (Fizz re-renders a
 * suspended component from scratch) and for the whole page's life in the browser.
 */
const pending = new WeakMap<object, Promise<string>>();

function delayed(data: DelayedData): Promise<string> {
  let promise = pending.get(data);
  if (promise === undefined) {
    promise = new Promise((resolve) => setTimeout(() => resolve('DELAYED-CONTENT'), data.delayMs));
    pending.set(data, promise);
  }
  return promise;
}

function DelayedContent({ data }: { readonly data: DelayedData }) {
  return <p id="delayed">{use(delayed(data))}</p>;
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
