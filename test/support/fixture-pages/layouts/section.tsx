import type { LayoutHead } from '../../../../shared/api/head.ts';
import type { ShouldRevalidateArgs } from '../../../../shared/api/route-definition.ts';
import { Outlet, useLoaderData, useRouteLoaderData } from '../../../../shared/api/route-hooks.tsx';
import { isRouteErrorResponse, useRouteError } from '../../../../shared/api/route-errors.tsx';
import { countLoad } from './load-counts.ts';
import type { load as shellLoad } from './shell.tsx';

export const head: LayoutHead = { titleTemplate: '%s · Section' };

export function load(): { readonly sectionLoads: number } {
  return { sectionLoads: countLoad('section') };
}

/** The guest list's page shows the section's data fresh: going there loads it again, where the runtime would keep it. */
export function shouldRevalidate({ nextUrl, defaultShouldRevalidate }: ShouldRevalidateArgs): boolean {
  return nextUrl.pathname === '/layouts/guests' || defaultShouldRevalidate;
}

/** The inner layout: reads its own data and its parent's by id. */
export default function Section() {
  const { sectionLoads } = useLoaderData<typeof load>();
  const shell = useRouteLoaderData<typeof shellLoad>('shell');
  return (
    <div id="section">
      <aside aria-label="Section">
        <p id="section-loads">
          {sectionLoads} (shell {shell?.shellLoads})
        </p>
      </aside>
      <Outlet />
    </div>
  );
}

/** Shown in the place of a page inside the section whose load or render failed, with the layouts above it. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    return (
      <main id="section-error">
        <h1>{error.status}</h1>
        <p>{error.statusText}</p>
      </main>
    );
  }
  const digest = error instanceof Error && 'digest' in error && typeof error.digest === 'string' ? error.digest : undefined;
  return (
    <main id="section-error">
      <h1>Something went wrong in this section</h1>
      {digest === undefined ? null : <p id="section-digest">{digest}</p>}
    </main>
  );
}
