import type { ReactElement } from 'react';
import { APP_NAME } from '../../shared/app-info.ts';
import { AppRoot } from '../../shared/app-root.tsx';
import HomePage from '../../app/pages/home.tsx';
import { bootstrapScript, loadClientAssets, type ClientAssets } from '../../server/render/client-assets.ts';
import { createDataStream } from '../../server/render/data-stream.ts';
import { resolveHead, type HeadUrls } from '../../shared/head.ts';
import { head as homeHead } from '../../app/pages/home.tsx';
import { PageDocument, type PageStylesheet } from '../../server/render/page-document.tsx';
import { StatusDocument } from '../../server/errors/status-document.tsx';
import { statusMessage } from '../../shared/http-error.ts';
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

/** `/` as the product renders it: the document, the embedded data and the page's modules. */
export function homeTree(clientDir: string): HomeTree {
  const client = loadClientAssets(clientDir);
  const assets = client.routes.get('/');
  if (assets === undefined) throw new Error(`${clientDir}: the client build has no route "/"`);
  // What the product writes for a route without `load` and without parameters.
  const dataScript = createDataStream({ data: undefined, params: {} }, { onScript: () => undefined, onDone: () => undefined, onError: () => undefined }).initial;
  return {
    bootstrapScriptContent: bootstrapScript(assets),
    element: () => (
      <PageDocument head={resolveHead(homeHead, { name: APP_NAME }, NO_PUBLIC_ORIGIN)} nonce={BASELINE_NONCE} styles={stylesheetsOf(client, assets.styles)} dataScript={dataScript}>
        <AppRoot>
          <HomePage data={undefined} params={{}} />
        </AppRoot>
      </PageDocument>
    ),
  };
}

/** The data script the product writes for a hydrating route whose data holds no promise; per request, as the product does. */
function initialDataScript(data: unknown): string | undefined {
  return createDataStream({ data, params: {} }, { onScript: () => undefined, onDone: () => undefined, onError: () => undefined }).initial;
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
