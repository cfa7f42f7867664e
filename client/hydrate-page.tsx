import type { Location } from '../shared/api/location.ts';
import { RouteTree } from '../shared/views/route-tree.tsx';
import { useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { AppRoot } from '../shared/views/app-root.tsx';
import { digestOf } from '../shared/views/error-boundary.tsx';
import { recordServerDigest } from '../shared/protocol/server-digests.ts';
import type { PageTelemetry } from '../shared/protocol/telemetry.ts';
import type { ReportError } from './page-telemetry.ts';
import { Router, startNavigation, StatusOnly } from './router.tsx';
import { levelsOf, type RouteModule, type View } from './view.ts';
import { readPageData } from './page-data.ts';

/** The element the server renders the page into; see server/render/page-document.tsx. */
const ROOT_ID = 'root';

/**
 * Once React has attached, starts in-place navigation (before it, links and forms are the
 * browser's; from it, they move in place, the runtime fetched at the first sign of use), then
 * marks the root, so tests (and people) can tell both have happened.
 */
function HydrationMarker({ root, start }: { readonly root: HTMLElement; readonly start: () => void }) {
  useEffect(() => {
    start();
    root.setAttribute('data-hydrated', '');
  }, [root, start]);
  return null;
}

/** At most this many errors wait for the telemetry chunk: a page that keeps failing reports its first ones. */
const WAITING_REPORTS = 10;

/**
 * Starts the telemetry chunk's fetch (page-telemetry.ts: web vitals and error reports) before
 * the page hydrates, and gives what reports an error: sent at once when the chunk is in, kept
 * until then (an error while hydrating comes first).
 */
function startTelemetryChunk(telemetry: PageTelemetry): ReportError {
  let send: ReportError | undefined;
  const waiting: Parameters<ReportError>[] = [];
  void import('./page-telemetry.ts').then(({ startTelemetry }) => {
    send = startTelemetry(telemetry, digestOf);
    for (const [kind, error] of waiting.splice(0)) send(kind, error);
  });
  return (kind, error) => {
    if (send !== undefined) send(kind, error);
    else if (waiting.length < WAITING_REPORTS) waiting.push([kind, error]);
  };
}

/** React's streaming runtime marks a boundary that failed on the server with its digest. */
function collectServerDigests(doc: Document): void {
  for (const template of doc.querySelectorAll<HTMLTemplateElement>('template[data-dgst]')) {
    const digest = template.dataset.dgst;
    if (digest !== undefined && digest !== '') recordServerDigest(digest);
  }
}

/**
 * The address of the view being rendered: the router renders a view only once its history entry
 * is there (client/router.tsx), so what the address says now is where that view is. Read as the
 * view renders, it needs no router, and hydration finds the path and query the server rendered.
 */
function locationNow(): Location {
  const { pathname, search, hash } = location;
  return { pathname, search, hash };
}

let started = false;

/**
 * Hydrates `#root` with the same tree the server rendered for this page: its layouts' modules,
 * outermost first, then its own. Every page's entry calls it when its module first runs; only
 * the document's own page hydrates, a page loaded later by a navigation is just its modules.
 */
export function startPage(modules: readonly RouteModule[]): void {
  if (started) return;
  started = true;
  const root = document.getElementById(ROOT_ID);
  if (root === null) throw new Error(`#${ROOT_ID} is missing: the server did not render a page`);
  const page = readPageData();
  const { telemetry, development, navigation } = page;
  collectServerDigests(document);
  const report = telemetry === undefined ? undefined : startTelemetryChunk(telemetry);
  const initial: View = { key: 0, modules, page };
  const onError = report === undefined ? {} : { onError: (error: unknown) => report('uncaught', error) };
  const start = () => startNavigation(initial, navigation);
  hydrateRoot(
    root,
    <Router
      initial={initial}
      render={(view) => (
        <>
          {/* A new view clears what a boundary caught (a failed page does not stick) and keeps the layouts mounted. */}
          <AppRoot resetKey={view.key} showErrorDetail={development === true} formToken={'page' in view ? view.page.formToken : undefined} {...onError}>
            {'page' in view ? (
              <RouteTree
                levels={levelsOf(view)}
                params={view.page.params}
                actionData={view.page.actionData}
                location={locationNow()}
                failure={view.page.failure}
                viewKey={view.key}
              />
            ) : (
              <StatusOnly status={view.status} message={view.message} digest={view.digest} />
            )}
          </AppRoot>
          <HydrationMarker root={root} start={start} />
        </>
      )}
    />,
    {
      onRecoverableError(error) {
        // React's default: the console. Reported too when telemetry is on.
        console.error(error);
        const digest = digestOf(error);
        if (digest !== undefined) recordServerDigest(digest);
        report?.('recoverable', error);
      },
    },
  );
}
