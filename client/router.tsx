import { useEffect, useState, type ReactNode } from 'react';
import type { ClientRoute } from '../shared/protocol/page-data.ts';
import { applicationErrorMessage, StatusView } from '../shared/views/status-view.tsx';
import { actionOf, installNavigator, setNavigationState } from '../shared/api/navigation.ts';
import { announce } from './router/announcer.ts';
import type { Router as Runtime } from './router/create-router.ts';
import { postsInPlace } from './router/form-post.ts';
import { claimHistory, otherFragmentHere } from './router/history-entry.ts';
import { RUNTIME_HOST } from './router/runtime-host.ts';
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
 * The route table's module (server/render/route-table-module.ts), fetched with the runtime.
 * Without it (a deploy has replaced the server since this document came, say) links and forms
 * stay the browser's: every page still loads, in full.
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

/** What shows a link or a form is about to be used: the runtime is fetched then, ahead of the click. */
const INTENT_EVENTS = ['pointerover', 'focusin', 'touchstart'] as const;

/**
 * Makes links and forms of pages with code move in place once the document has hydrated. The
 * runtime that does it (router/create-router.ts) and the route table are fetched at the first
 * sign they are needed: a pointer over or focus on a link or a form, a prefetch, a fetcher's
 * request, a click or a submission, which the runtime then carries out. A page that is only
 * read never loads them. `initial` is the view the document was hydrated with, `routeTable` the
 * URL of the table's module; without one, nothing moves in place. The one place the runtime is
 * given the browser's own globals.
 */
export function startNavigation(initial: View, routeTable: string | undefined): void {
  if (routeTable === undefined) return;
  const tableUrl = routeTable;
  const claim = claimHistory(history, initial.key);
  // The live region is there from the start: screen readers often miss one filled as it is inserted.
  announce('');
  let loading: Promise<Runtime | undefined> | undefined;
  let runtime: Runtime | undefined;
  /** Whether the runtime could not be loaded (a deploy has replaced the server since, say): the browser does the rest. */
  let failed = false;
  function load(): Promise<Runtime | undefined> {
    loading ??= Promise.all([import('./router/create-router.ts'), importRouteTable(tableUrl)])
      .then(([{ createRouter }, table]) => {
        // What kept the table out is in the console already (importRouteTable).
        if (table === undefined) {
          failed = true;
          return undefined;
        }
        const router = createRouter(history, fetch, table, initial, (view) => showView?.(view), claim, RUNTIME_HOST);
        shown = router.shown;
        runtime = router;
        installNavigator(router);
        return router;
      })
      .catch((error: unknown) => {
        console.error(error);
        failed = true;
        return undefined;
      });
    return loading;
  }
  const onIntent = (event: Event) => {
    if (event.target instanceof Element && event.target.closest('a[href],form') !== null) void load();
  };
  for (const type of INTENT_EVENTS) addEventListener(type, onIntent, { capture: true, passive: true });
  // Back or forward to another page before the runtime is in: to an entry the document had
  // before a reload, which Chrome keeps as this one's. The runtime shows it once loaded, or the
  // browser loads it in full; once in, its own listener takes every move.
  addEventListener('popstate', (event) => {
    if (runtime !== undefined || location.pathname + location.search === claim.here) return;
    void load().then((router) => (router === undefined ? location.reload() : router.pop(event)));
  });
  // Until the runtime is in: what is sure to stay with the browser is answered at once, the rest
  // is taken (the click's default prevented) and handed to the runtime once it has loaded, or
  // back to the browser when it cannot be.
  installNavigator({
    navigate(url, options) {
      if (failed || url.origin !== location.origin || otherFragmentHere(url)) return false;
      // Pending at once, as the runtime will say it (useNavigationState): a pending indicator
      // does not wait for the runtime's chunk. A submission is not told early: an app that
      // disables its fields while submitting would leave them out of what the runtime reads.
      setNavigationState({ state: 'loading', location: url.href });
      void load().then((router) => {
        if (router?.navigate(url, options) !== true) location[options?.replace === true ? 'replace' : 'assign'](url.href);
      });
      return true;
    },
    submit(form, submitter) {
      if (failed || !postsInPlace(form, submitter) || actionOf(form, submitter).origin !== location.origin) return false;
      void load().then((router) => {
        // Sent again as the visitor sent it, to the runtime now installed or, failing it, to the browser.
        if (router?.submit(form, submitter) !== true) form.requestSubmit(submitter);
      });
      return true;
    },
    prefetch(url, data) {
      void load().then((router) => router?.prefetch(url, data));
    },
    async fetch(url, body, signal, show, posted) {
      const router = await load();
      if (router === undefined) throw new Error('the navigation runtime could not be loaded');
      return router.fetch(url, body, signal, show, posted);
    },
    async revalidate(onShow, after) {
      const router = await load();
      if (router === undefined) onShow();
      else await router.revalidate(onShow, after);
    },
  });
}
