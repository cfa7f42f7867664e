import type { ReactElement } from 'react';
import { SITE_NAME } from '../../app/site.ts';
import { APP_NAME } from '../../shared/wording/app-info.ts';
import { AppRoot } from '../../shared/views/app-root.tsx';
import { routes as appRoutes } from '../../app/routes.ts';
import { bootstrapScript, loadClientAssets, type ClientAssets, type PageAssets } from '../../server/render/client-assets.ts';
import { createDataStream, settledDataStream } from '../../server/render/data-stream.ts';
import { createScriptChain } from '../../server/render/deferred-scripts.tsx';
import { headWithinLayouts, resolveHead, type HeadUrls, type PageHead, type ResolvedHead, type SiteHead } from '../../shared/api/head.ts';
import { flattenRoutes, isResourceRoute } from '../../shared/api/route-definition.ts';
import { RouteTree, type BranchLevel } from '../../shared/views/route-tree.tsx';
import { PageDocument, type PageStylesheet } from '../../server/render/page-document.tsx';
import { StatusDocument } from '../../server/errors/status-document.tsx';
import { statusMessage } from '../../shared/wording/status-messages.ts';
import { STREAMING_TITLE, SUSPENSE_PATH } from './suspense-fixture.ts';
import { SuspensePage } from './suspense-page.tsx';
import AppDetailPage, { head as appDetailHead, type AppDetailData } from './app-detail-page.tsx';
import {
  APP_DETAIL_ID,
  APP_DETAIL_ROUTE,
  APP_LIST_DEFERRED_MS,
  APP_LIST_MARKER,
  APP_LIST_PATH,
  APP_VISITOR_NAME,
  appDetailPath,
  appListItem,
  appListItems,
} from './app-list-fixture.ts';
import AppListPage, { head as appListHead, type AppListData } from './app-list-page.tsx';
import RootLayout from './layout-root.tsx';
import SectionLayout from './layout-section.tsx';
import { sectionData, siteData } from './layouts-fixture.ts';

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

/** A page of the app-shaped fixture for one request: its document, and what stops its data stream when the client leaves. */
export interface AppPageRender {
  readonly element: ReactElement;
  readonly dispose: () => void;
}

export interface AppPageTree {
  /** A new data object per request, as `load` makes. */
  readonly render: () => AppPageRender;
  readonly bootstrapScriptContent: string;
}

/** The fixture build's modules and stylesheets of one of its pages. */
function fixturePageAssets(fixtureClientDir: string, route: string): { readonly client: ClientAssets; readonly assets: PageAssets } {
  const client = loadClientAssets(fixtureClientDir);
  const assets = client.routes.get(route);
  if (assets === undefined) throw new Error(`${fixtureClientDir}: the fixture's client build has no route "${route}"`);
  return { client, assets };
}

/** The two bench layouts around a page, with the data their loads give (layout-root.tsx, layout-section.tsx). */
function withinBenchLayouts(page: BranchLevel): { readonly levels: BranchLevel[]; readonly layouts: { readonly id: string; readonly data: unknown }[] } {
  const site = siteData();
  const section = sectionData();
  return {
    levels: [
      { id: 'site', Component: RootLayout, ErrorBoundary: undefined, data: site },
      { id: 'section', Component: SectionLayout, ErrorBoundary: undefined, data: section },
      page,
    ],
    layouts: [
      { id: 'site', data: site },
      { id: 'section', data: section },
    ],
  };
}

/**
 * The app's site head (app/app.ts), which the fixture build serves: its description fills a page
 * that has none. Written out, not imported, so this floor does not load the app's modules.
 */
const APP_SITE: SiteHead = { name: SITE_NAME, description: 'A guest book streamed by React 19 from Express 5.' };

/** The page's head inside the bench layouts (which declare none), as the product resolves it. */
function benchHead(page: PageHead): ResolvedHead {
  return resolveHead(headWithinLayouts([undefined, undefined], page), APP_SITE, NO_PUBLIC_ORIGIN);
}

/**
 * The app-shaped list page as the fixture build serves it to a signed-in visitor: the two
 * layouts, the items with a link and a fetcher form each (with a form token of the product's
 * length), and the deferred summary streamed into its Suspense boundary, its value written by the
 * product's data stream and script chain after `#root`. The visitor's name is written, not read
 * from a cookie: this floor verifies no session.
 */
export function appListTree(fixtureClientDir: string, formToken: string): AppPageTree {
  const { client, assets } = fixturePageAssets(fixtureClientDir, APP_LIST_PATH);
  const head = benchHead(appListHead);
  const styles = stylesheetsOf(client, assets.styles);
  return {
    bootstrapScriptContent: bootstrapScript(assets),
    render() {
      const data: AppListData = {
        items: appListItems(),
        summary: new Promise((resolve) => setTimeout(resolve, APP_LIST_DEFERRED_MS, APP_LIST_MARKER)),
        visitor: APP_VISITOR_NAME,
      };
      const { levels, layouts } = withinBenchLayouts({ id: APP_LIST_PATH, Component: AppListPage, ErrorBoundary: undefined, data });
      const chain = createScriptChain(BASELINE_NONCE);
      const stream = createDataStream(
        { data, params: {}, formToken, route: APP_LIST_PATH, layouts },
        { onScript: (script) => chain.push(script), onDone: () => chain.end(), onError: () => chain.end() },
      );
      return {
        dispose: () => stream.dispose(),
        element: (
          <PageDocument head={head} nonce={BASELINE_NONCE} styles={styles} dataScript={stream.initial} afterRoot={chain.element}>
            <AppRoot formToken={formToken}>
              <RouteTree levels={levels} params={{}} actionData={undefined} location={{ pathname: APP_LIST_PATH, search: '', hash: '' }} viewKey={0} />
            </AppRoot>
          </PageDocument>
        ),
      };
    },
  };
}

/** An item's detail page as the fixture build serves it to a signed-in visitor: the head from its data, inside the two layouts. */
export function appDetailTree(fixtureClientDir: string): AppPageTree & { readonly path: string } {
  const { client, assets } = fixturePageAssets(fixtureClientDir, APP_DETAIL_ROUTE);
  const styles = stylesheetsOf(client, assets.styles);
  const path = appDetailPath(APP_DETAIL_ID);
  const params = { id: APP_DETAIL_ID };
  return {
    path,
    bootstrapScriptContent: bootstrapScript(assets),
    render() {
      const item = appListItem(APP_DETAIL_ID);
      if (item === undefined) throw new Error(`the list has no ${APP_DETAIL_ID}`);
      const data: AppDetailData = { item, visitor: APP_VISITOR_NAME };
      const { levels, layouts } = withinBenchLayouts({ id: APP_DETAIL_ROUTE, Component: AppDetailPage, ErrorBoundary: undefined, data });
      const dataScript = settledDataStream({ data, params, route: APP_DETAIL_ROUTE, layouts }, undefined).initial;
      return {
        dispose: () => undefined,
        element: (
          <PageDocument head={benchHead(appDetailHead(data))} nonce={BASELINE_NONCE} styles={styles} dataScript={dataScript}>
            <AppRoot>
              <RouteTree levels={levels} params={params} actionData={undefined} location={{ pathname: path, search: '', hash: '' }} viewKey={0} />
            </AppRoot>
          </PageDocument>
        ),
      };
    },
  };
}
