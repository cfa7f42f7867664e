import { useEffect, useState, type ReactNode } from 'react';
import { installNavigator } from '../shared/api/navigation.ts';
import type { ClientRoute } from '../shared/protocol/page-data.ts';
import { applicationErrorMessage, StatusView } from '../shared/views/status-view.tsx';
import { createRouter } from './router/create-router.ts';
import type { View } from './view.ts';

/** The Router component's state setter: what the navigation runtime shows a view with. */
let showView: ((view: View) => void) | undefined;
/** The runtime's `shown`, once it has started: told each time a view is on the screen. */
let shown: (() => void) | undefined;

/** The router: renders the current view; the navigation runtime (router/create-router.ts) swaps it. */
export function Router({ initial, render }: { readonly initial: View; readonly render: (view: View) => ReactNode }) {
  const [view, setView] = useState(initial);
  showView = setView;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `view` is what the effect follows: it runs once each view is on the screen
  useEffect(() => shown?.(), [view]);
  return render(view);
}

/** The view of a status the server answered a navigation with: the same words as its status page (the app's, in the request's language). */
export function StatusOnly({ status, message, digest }: { readonly status: number; readonly message: string; readonly digest?: string | undefined }) {
  return (
    <main>
      {/* Headed by its status, as the full page is, the 500 one included. */}
      <StatusView status={status} message={status >= 500 ? applicationErrorMessage('server', location.hostname) : message} digest={digest} />
    </main>
  );
}

/**
 * The route table's module (server/render/route-table-module.ts), which the page's loader has
 * fetched beside its code. Without it (a deploy has replaced the server since this document
 * came, say) links and forms stay the browser's: every page still loads, in full.
 */
async function importRouteTable(url: string): Promise<readonly ClientRoute[] | undefined> {
  try {
    const module: unknown = await import(url);
    const table: unknown = Reflect.get(Object(module), 'default');
    return Array.isArray(table) ? table : undefined;
  } catch (error) {
    console.error(error);
    return undefined;
  }
}

/**
 * Starts the navigation runtime after hydration: once the route table is in, links and forms of
 * pages with code move in place. `initial` is the view the document was hydrated with,
 * `routeTable` the URL of the table's module; without one, nothing moves in place. The one
 * place the runtime is given the browser's own globals.
 */
export async function startNavigation(initial: View, routeTable: string | undefined): Promise<void> {
  const table = routeTable === undefined ? undefined : await importRouteTable(routeTable);
  if (table === undefined) return;
  const router = createRouter(history, fetch, table, initial, (view) => showView?.(view));
  shown = router.shown;
  installNavigator(router);
}
