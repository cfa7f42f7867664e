import { Suspense, use } from 'react';
import type { PageHead } from '../../shared/api/head.ts';
import type { PageProps } from '../../shared/api/route-definition.ts';
import { DEFERRED_MARKER, STREAMING_TITLE, SUSPENSE_DELAY_MS } from './suspense-fixture.ts';

export interface DeferredData {
  /** Settles on the server after the Suspense page's delay; its value streams into the page. */
  readonly value: Promise<string>;
}

export const head: PageHead = { title: STREAMING_TITLE };

/** Deferred data (docs/building-an-app.md): the shell does not wait for `value`. */
export function load(): DeferredData {
  return { value: new Promise((resolve) => setTimeout(resolve, SUSPENSE_DELAY_MS, DEFERRED_MARKER)) };
}

function DeferredContent({ value }: { readonly value: Promise<string> }) {
  return <p>{use(value)}</p>;
}

/**
 * The Suspense page of suspense-page.tsx, element for element, with its boundary reading the
 * value `load` deferred instead of a promise of its own: the server also writes the settled
 * value into the response for the browser, which hydrates the boundary from it.
 */
export default function DeferredPage({ data }: PageProps<DeferredData>) {
  return (
    <main className="app-main">
      <h1>Streaming</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <DeferredContent value={data.value} />
      </Suspense>
    </main>
  );
}
