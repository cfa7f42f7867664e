import { useState } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { Outlet, useLoaderData } from '../../shared/api/route-hooks.tsx';
import { useRouteError } from '../../shared/api/route-errors.tsx';
import { type BranchLevel, RouteTree } from '../../shared/views/route-tree.tsx';
import { headlessRoot } from '../support/headless-root.ts';

/**
 * The route tree from one view to the next, as the browser's runtime renders it
 * (shared/views/route-tree.tsx): a new view mounts the page afresh and keeps its layouts, and an
 * error a page throws in the browser shows at its boundary until the next view. Mounted in a
 * React client root in Node, whose components render nothing and say what they see.
 */

const seen: string[] = [];
let mounts = { layout: 0, page: 0 };

function Layout() {
  const [mount] = useState(() => ++mounts.layout);
  seen.push(`layout ${mount} ${String(useLoaderData())}`);
  return <Outlet />;
}

function Page({ data }: { readonly data: unknown }) {
  const [mount] = useState(() => ++mounts.page);
  if (data === 'throws') throw new Error('the page broke');
  seen.push(`page ${mount} ${String(data)}`);
  return null;
}

function Boundary() {
  const error = useRouteError();
  seen.push(`boundary: ${error instanceof Error ? error.message : String(error)}`);
  return null;
}

function levels(pageData: string): BranchLevel[] {
  return [
    { id: 'shell', Component: Layout, data: 'shell data' },
    { id: '/page', Component: Page, ErrorBoundary: Boundary, data: pageData },
  ];
}

afterEach(() => {
  seen.splice(0);
  mounts = { layout: 0, page: 0 };
  vi.unstubAllGlobals();
});

const location = { pathname: '/page', search: '', hash: '' };

describe('the route tree from one view to the next', () => {
  test('mounts the page afresh for each view and keeps its layouts, their state with them', () => {
    const root = headlessRoot();
    root.render(<RouteTree levels={levels('first')} params={{}} actionData={undefined} location={location} viewKey={1} />);
    root.render(<RouteTree levels={levels('second')} params={{}} actionData={undefined} location={location} viewKey={2} />);
    expect(seen).toEqual(['layout 1 shell data', 'page 1 first', 'layout 1 shell data', 'page 2 second']);
    root.unmount();
  });

  test("shows an error the page throws in the browser at its level's boundary, inside the layouts, and clears it with the next view", () => {
    const caught: unknown[] = [];
    const root = headlessRoot({ onCaughtError: (error) => caught.push(error) });
    root.render(<RouteTree levels={levels('first')} params={{}} actionData={undefined} location={location} viewKey={1} />);
    seen.splice(0);
    root.render(<RouteTree levels={levels('throws')} params={{}} actionData={undefined} location={location} viewKey={2} />);
    // React renders a throwing part again before it gives up on it: the boundary shows either way, the layout kept.
    expect(new Set(seen)).toEqual(new Set(['layout 1 shell data', 'boundary: the page broke']));
    expect(caught).toHaveLength(1);
    seen.splice(0);
    root.render(<RouteTree levels={levels('mended')} params={{}} actionData={undefined} location={location} viewKey={3} />);
    expect(seen).toEqual(['layout 1 shell data', `page ${mounts.page} mended`]);
    root.unmount();
  });
});

function Shell() {
  return (
    <main>
      SHELL
      <Outlet />
    </main>
  );
}

const ShellBoundary = () => <p>SHELL BOUNDARY</p>;
const ShownPage = () => <p>PAGE</p>;
const PageBoundary = () => <p>PAGE BOUNDARY</p>;

describe('a failed load on the server', () => {
  test("shows the failed level's boundary, and a layout above it with a boundary of its own renders as it is", () => {
    const html = renderToString(
      <RouteTree
        levels={[
          { id: 'shell', Component: Shell, ErrorBoundary: ShellBoundary, data: undefined },
          { id: '/page', Component: ShownPage, ErrorBoundary: PageBoundary, data: undefined },
        ]}
        params={{}}
        actionData={undefined}
        location={location}
        viewKey={1}
        failure={{ at: 1, error: { status: 404, statusText: 'Not Found' } }}
      />,
    );
    expect(html).toBe('<main>SHELL<p>PAGE BOUNDARY</p></main>');
  });
});
