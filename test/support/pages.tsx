import { Suspense, use } from 'react';
import { forbidden, notFound, unauthorized } from '../../shared/api/status-helpers.ts';
import type { PageProps, PageRouteDefinition } from '../../shared/api/route-definition.ts';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { createSettleAfter } from './settle-after.ts';

const after = createSettleAfter<string>();

interface SlowData {
  readonly delayMs: number;
}

function SlowContent({ data }: { readonly data: SlowData }) {
  const text = use(after(data, data.delayMs, () => 'SLOW-CONTENT-ARRIVED'));
  return <p id="slow">{text}</p>;
}

function SlowPage({ data }: PageProps<SlowData>) {
  return (
    <main>
      <h1>SHELL-HEADING</h1>
      <Suspense fallback={<p id="fallback">LOADING-FALLBACK</p>}>
        <SlowContent data={data} />
      </Suspense>
    </main>
  );
}

function FailingContent({ data }: { readonly data: SlowData }) {
  use(
    after(data, data.delayMs, () => {
      throw new Error('boundary exploded: SECRET-BOUNDARY-DETAIL');
    }),
  );
  return <p>never</p>;
}

function FailingBoundaryPage({ data }: PageProps<SlowData>) {
  return (
    <main>
      <h1>SHELL-HEADING</h1>
      <Suspense fallback={<p>LOADING-FALLBACK</p>}>
        <FailingContent data={data} />
      </Suspense>
    </main>
  );
}

function ThrowingPage(): never {
  throw new TypeError('render exploded: SECRET-RENDER-DETAIL');
}

function StatusInShellPage({ params }: PageProps): never {
  if (params.kind === 'unauthorized') unauthorized();
  if (params.kind === 'forbidden') forbidden();
  notFound();
}

function Plain({ data }: PageProps<unknown>) {
  return <pre id="data">{JSON.stringify(data)}</pre>;
}

/** Pages that exercise every path of docs/rendering.md and docs/status-pages.md; never part of the product's route table. */
export function unitRoutes(delayMs = 150): readonly PageRouteDefinition[] {
  return [
    { path: '/', component: Plain, load: () => ({ home: true }) },
    defineRoute({ path: '/slow', component: SlowPage, load: () => ({ delayMs }) }),
    /** A boundary that never resolves (delay -1). */
    defineRoute({ path: '/hang', component: SlowPage, load: () => ({ delayMs: -1 }) }),
    defineRoute({ path: '/boundary-error', component: FailingBoundaryPage, load: () => ({ delayMs: 20 }) }),
    { path: '/throw-in-render', component: ThrowingPage },
    {
      path: '/throw-in-load',
      component: Plain,
      load: () => {
        throw new RangeError('load exploded: SECRET-LOAD-DETAIL');
      },
    },
    { path: '/status-in-load/:kind', component: Plain, load: ({ params }) => StatusInShellPage({ data: undefined, params }) },
    { path: '/status-in-shell/:kind', component: StatusInShellPage },
    {
      path: '/hostile-data',
      component: Plain,
      load: () => ({
        html: '</script><script>window.__pwned = 1</script>',
        comment: '<!--<script>',
        separators: 'line\u2028para\u2029end',
        amp: 'a&b',
      }),
    },
    { path: '/users/:id', component: Plain, head: { title: 'User' }, load: ({ params }) => ({ id: params.id }) },
  ];
}
