import { Component, Suspense, use, type ReactNode } from 'react';
import type { PageProps } from '../../../shared/api/route-definition.ts';

export interface DeferredData {
  readonly fast: string;
  /** Settles on the server 300 ms after `load`; the browser gets it from the same response. */
  readonly slow: Promise<{ readonly text: string; readonly at: Date }>;
  /** Rejects on the server; the browser gets its digest. */
  readonly broken: Promise<string>;
}

function Slow({ value }: { readonly value: DeferredData['slow'] }) {
  const { text, at } = use(value);
  return (
    <p id="slow">
      {text} ({at.getUTCFullYear()})
    </p>
  );
}

function Broken({ value }: { readonly value: Promise<string> }) {
  return <p id="broken-value">{use(value)}</p>;
}

function digestOf(error: unknown): string {
  const digest: unknown = typeof error === 'object' && error !== null ? Reflect.get(error, 'digest') : undefined;
  return typeof digest === 'string' ? digest : 'none';
}

/** The page's own boundary around the value that rejects, so the rest of the page stays. */
class LocalBoundary extends Component<{ readonly children: ReactNode }, { readonly digest: string | undefined }> {
  override state: { readonly digest: string | undefined } = { digest: undefined };

  static getDerivedStateFromError(error: unknown): { readonly digest: string } {
    return { digest: digestOf(error) };
  }

  override render() {
    return this.state.digest === undefined ? this.props.children : <p id="broken">Failed. Digest: {this.state.digest}</p>;
  }
}

/** A fast value in the shell, a 300 ms value and a rejected one streamed into their boundaries. */
export default function DeferredPage({ data }: PageProps<DeferredData>) {
  return (
    <main>
      <h1 id="fast">{data.fast}</h1>
      <Suspense fallback={<p id="slow-fallback">Loading the slow value…</p>}>
        <Slow value={data.slow} />
      </Suspense>
      <LocalBoundary>
        <Suspense fallback={<p id="broken-fallback">Loading the broken value…</p>}>
          <Broken value={data.broken} />
        </Suspense>
      </LocalBoundary>
    </main>
  );
}
