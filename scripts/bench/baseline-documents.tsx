import type { ReactElement } from 'react';
import { APP_NAME } from '../../shared/app-info.ts';
import { AppRoot } from '../../shared/app-root.tsx';
import HomePage from '../../shared/pages/home.tsx';
import { loadClientAssets } from '../../server/render/client-assets.ts';
import { createDataStream } from '../../server/render/data-stream.ts';
import { resolveHead } from '../../shared/head.ts';
import { head as homeHead } from '../../shared/pages/home.tsx';
import { PageDocument } from '../../server/render/page-document.tsx';
import { StatusDocument } from '../../server/errors/status-document.tsx';
import { statusMessage } from '../../shared/http-error.ts';
import { SuspensePage } from './suspense-page.tsx';

/**
 * The React trees the baselines render: element for element what the product renders for the
 * same address, so a ratio compares servers, not pages. The product draws a fresh nonce per
 * request for its CSP; a baseline has no CSP, and a fixed nonce of the same length (16 bytes in base64) keeps the markup the same size.
 */
export const BASELINE_NONCE = 'YmFzZWxpbmUtbm9uY2UhIQ==';

export interface HomeTree {
  readonly element: () => ReactElement;
  readonly bootstrapModules: string[];
}

/** `/` as the product renders it: the document, the embedded data and the page's modules. */
export function homeTree(clientDir: string): HomeTree {
  const assets = loadClientAssets(clientDir).routes.get('/');
  if (assets === undefined) throw new Error(`${clientDir}: the client build has no route "/"`);
  // What the product writes for a route without `load` and without parameters.
  const dataScript = createDataStream({ data: undefined, params: {} }, { onScript: () => undefined, onDone: () => undefined, onError: () => undefined }).initial;
  return {
    bootstrapModules: [assets.script],
    element: () => (
      <PageDocument head={resolveHead(homeHead, { name: APP_NAME }, undefined, '/')} nonce={BASELINE_NONCE} assets={assets} dataScript={dataScript}>
        <AppRoot>
          <HomePage data={undefined} params={{}} />
        </AppRoot>
      </PageDocument>
    ),
  };
}

/** The fixture page with its 50 ms boundary; a new data object per request, as `load` makes. */
export function suspenseElement(delayMs: number): ReactElement {
  return (
    <PageDocument head={resolveHead({ title: 'Streaming' }, { name: APP_NAME }, undefined, '/')} nonce={BASELINE_NONCE} assets={undefined} dataScript={undefined}>
      <AppRoot>
        <SuspensePage data={{ delayMs }} params={{}} />
      </AppRoot>
    </PageDocument>
  );
}

/** The product's 404 document, rendered by React. */
export function notFoundElement(): ReactElement {
  const message = statusMessage(404);
  return <StatusDocument title={`404: ${message}`} nonce={BASELINE_NONCE} analyticsSources={[]} status={404} message={message} />;
}
