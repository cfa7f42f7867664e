import { useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { AppRoot } from '../shared/app-root.tsx';
import { digestOf } from '../shared/error-boundary.tsx';
import { recordServerDigest } from '../shared/server-digests.ts';
import type { PageComponent } from '../shared/route-definition.ts';
import type { TelemetrySettings } from '../shared/telemetry.ts';
import { readPageData } from './page-data.ts';
import { reportClientError } from './report-client-error.ts';

/** The element the server renders the page into; see server/render/page-document.tsx. */
const ROOT_ID = 'root';

/** Marks the root once React has attached, so tests (and people) can tell it happened. */
function HydrationMarker({ root, telemetry }: { readonly root: HTMLElement; readonly telemetry: TelemetrySettings | undefined }) {
  useEffect(() => {
    root.setAttribute('data-hydrated', '');
    if (telemetry !== undefined) {
      // A separate chunk, fetched only when vitals are switched on.
      void import('./report-web-vitals.ts').then(({ reportWebVitals }) => reportWebVitals(telemetry));
    }
  }, [root, telemetry]);
  return null;
}

/** React's streaming runtime marks a boundary that failed on the server with its digest. */
function collectServerDigests(doc: Document): void {
  for (const template of doc.querySelectorAll<HTMLTemplateElement>('template[data-dgst]')) {
    const digest = template.dataset.dgst;
    if (digest !== undefined && digest !== '') recordServerDigest(digest);
  }
}

/** Hydrates `#root` with the same tree the server rendered for this page. */
export function hydratePage(Page: PageComponent): void {
  const root = document.getElementById(ROOT_ID);
  if (root === null) throw new Error(`#${ROOT_ID} is missing: the server did not render a page`);
  const { data, params, telemetry, development } = readPageData();
  collectServerDigests(document);
  const report =
    telemetry === undefined ? undefined : (kind: 'uncaught' | 'recoverable', error: unknown) => reportClientError(telemetry, kind, error);
  hydrateRoot(
    root,
    <AppRoot showErrorDetail={development === true} {...(report === undefined ? {} : { onError: (error: unknown) => report('uncaught', error) })}>
      <Page data={data} params={params} />
      <HydrationMarker root={root} telemetry={telemetry} />
    </AppRoot>,
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
