import type { ReactElement } from 'react';
import { APP_NAME } from '../../shared/wording/app-info.ts';
import { AppRoot } from '../../shared/views/app-root.tsx';
import { routes as appRoutes } from '../../app/routes.ts';
import { bootstrapScript, loadClientAssets, type ClientAssets } from '../../server/render/client-assets.ts';
import { settledDataStream } from '../../server/render/data-stream.ts';
import { headWithinLayouts, resolveHead, type HeadUrls } from '../../shared/api/head.ts';
import { flattenRoutes, isResourceRoute } from '../../shared/api/route-definition.ts';
import { RouteTree, type BranchLevel } from '../../shared/views/route-tree.tsx';
import { PageDocument, type PageStylesheet } from '../../server/render/page-document.tsx';
import { StatusDocument } from '../../server/errors/status-document.tsx';
import { statusMessage } from '../../shared/wording/status-messages.ts';
import { STREAMING_TITLE, SUSPENSE_PATH } from './suspense-fixture.ts';
import { SuspensePage } from './suspense-page.tsx';

/** The bench's app has no public origin, so its fixed heads hold no URL to leave out. */
const NO_PUBLIC_ORIGIN: HeadUrls = { origin: undefined, pageUrl: undefined, onUnusable: () => undefined };

/**
 * The React trees the baselines render: element for element what the product renders for the
 * same address, so a ratio compares servers, not pages. The product draws a fresh nonce per
 * request for its CSP; a baseline has no CSP, and a fixed nonce of the same length (16 bytes in base64) keeps the markup the same size.
 */
export const BASELINE_NONCE = 'YmFzZWxpbmUtbm9uY2UhIQ==';

export interface HomeTree {
  readonly element: () => ReactElement;
  readonly bootstrapScriptContent: string;
}

/** A page's stylesheets as the product writes them: inline when small enough (client-assets.ts), else linked. */
function stylesheetsOf(client: ClientAssets, styles: readonly string[]): PageStylesheet[] {
  return styles.map((href) => ({ href, css: client.inlineStyles.get(href) }));
}

/** What the app's root layout's `load` gives a visitor without a session (app/layouts/root.tsx). */
const NO_VISITOR = { visitor: null };

/**
 * `/` as the product renders it: the app's home inside its layouts, the document, the embedded
 * data (the layouts' too) and the page's modules. The layouts' data is what their loads give a
 * visitor without a session; the baselines run no load.
 */
export function homeTree(clientDir: string): HomeTree {
  const client = loadClientAssets(clientDir);
  const assets = client.routes.get('/');
  const home = flattenRoutes(appRoutes).find((route) => route.path === '/');
  if (assets === undefined || home === undefined || isResourceRoute(home)) throw new Error(`${clientDir}: the client build has no route "/"`);
  const layouts = home.layouts ?? [];
  const levels: BranchLevel[] = [
    ...layouts.map(({ id, component, ErrorBoundary }) => ({ id, Component: component, ErrorBoundary, data: NO_VISITOR })),
    { id: '/', Component: home.component, ErrorBoundary: home.ErrorBoundary, data: undefined },
  ];
  const pageData = { data: undefined, params: {}, ...(layouts.length === 0 ? {} : { route: '/', layouts: layouts.map(({ id }) => ({ id, data: NO_VISITOR })) }) };
  // The product's script for data that holds no promise, less the route table's URL.
  const dataScript = settledDataStream(pageData, undefined).initial;
  const declared = typeof home.head === 'function' ? {} : (home.head ?? {});
  const head = resolveHead(
    headWithinLayouts(
      layouts.map((layout) => layout.head),
      declared,
    ),
    { name: APP_NAME },
    NO_PUBLIC_ORIGIN,
  );
  return {
    bootstrapScriptContent: bootstrapScript(assets),
    element: () => (
      <PageDocument head={head} nonce={BASELINE_NONCE} styles={stylesheetsOf(client, assets.styles)} dataScript={dataScript}>
        <AppRoot>
          <RouteTree levels={levels} params={{}} actionData={undefined} location={{ pathname: '/', search: '', hash: '' }} viewKey={0} />
        </AppRoot>
      </PageDocument>
    ),
  };
}

/** The data script the product writes for a hydrating route whose data holds no promise; per request, as the product does. */
function initialDataScript(data: unknown): string | undefined {
  return settledDataStream({ data, params: {} }, undefined).initial;
}

export interface SuspenseTree {
  /** A new data object per request, as `load` makes. */
  readonly element: (delayMs: number) => ReactElement;
  readonly bootstrapScriptContent: string;
}

/**
 * The fixture's Suspense page with its 50 ms boundary, hydrating as the fixture build serves it:
 * its modules from the fixture's client build and the data script of `{ delayMs }`.
 */
export function suspenseTree(fixtureClientDir: string): SuspenseTree {
  const client = loadClientAssets(fixtureClientDir);
  const assets = client.routes.get(SUSPENSE_PATH);
  if (assets === undefined) throw new Error(`${fixtureClientDir}: the fixture's client build has no route "${SUSPENSE_PATH}"`);
  return {
    bootstrapScriptContent: bootstrapScript(assets),
    element: (delayMs) => {
      const data = { delayMs };
      return (
        <PageDocument
          head={resolveHead({ title: STREAMING_TITLE }, { name: APP_NAME }, NO_PUBLIC_ORIGIN)}
          nonce={BASELINE_NONCE}
          styles={stylesheetsOf(client, assets.styles)}
          dataScript={initialDataScript(data)}
        >
          <AppRoot>
            <SuspensePage data={data} params={{}} />
          </AppRoot>
        </PageDocument>
      );
    },
  };
}

/** The product's 404 document, rendered by React. */
export function notFoundElement(): ReactElement {
  const message = statusMessage(404);
  return <StatusDocument title={`404: ${message}`} nonce={BASELINE_NONCE} analyticsSources={[]} status={404} message={message} />;
}
