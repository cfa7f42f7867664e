import { createServer, type ServerResponse } from 'node:http';
import type { ReactElement } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { appDetailTree, appListTree, homeTree, notFoundElement, suspenseTree, BASELINE_NONCE, type AppPageTree } from './baseline-documents.tsx';
import { issueToken } from '../../server/security/csrf.ts';
import { APP_JSON_PATH, APP_LIST_PATH, appListItems } from './app-list-fixture.ts';
import { LOOPBACK } from '../lib/loopback.ts';
import { readBaselineEnv } from './baseline-env.ts';
import { exitOnStop } from './baseline-exit.ts';
import { SUSPENSE_DELAY_MS, SUSPENSE_PATH } from './suspense-fixture.ts';

/**
 * Baseline: bare `node:http` streaming the same React trees as the product with
 * `renderToPipeableStream` (the Suspense page as the fixture build serves it: hydrating, with
 * its data script; the app-shaped list and detail pages, and the items as JSON), and nothing else (no logging, headers, nonce or timeouts). The
 * floor of React streaming on this Node: the product's Suspense, memory and cold-start figures
 * are ratios to this server.
 */
exitOnStop();
const { port, clientDir, fixtureClientDir } = readBaselineEnv(process.env);
if (fixtureClientDir === undefined) throw new Error("BENCH_FIXTURE_CLIENT_DIR is not set: the folder of the fixture build's client");
const home = homeTree(clientDir);
const suspense = suspenseTree(fixtureClientDir);
// A token of the product's length, signed once: this floor checks no cookie and signs nothing per request.
const appList = appListTree(fixtureClientDir, issueToken('baseline-form-token-secret-of-32-characters'));
const appDetail = appDetailTree(fixtureClientDir);

function stream(res: ServerResponse, status: number, element: ReactElement, bootstrapScriptContent?: string): void {
  const { pipe } = renderToPipeableStream(element, {
    nonce: BASELINE_NONCE,
    ...(bootstrapScriptContent === undefined ? {} : { bootstrapScriptContent }),
    onShellReady() {
      res.statusCode = status;
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      pipe(res);
    },
    onShellError() {
      res.statusCode = 500;
      res.end();
    },
    onError(error) {
      process.stderr.write(`render error: ${String(error)}\n`);
    },
  });
}

/** An app-shaped page: its data stream stops when the client leaves, as the product's does. */
function streamAppPage(res: ServerResponse, tree: AppPageTree): void {
  const { element, dispose } = tree.render();
  res.on('close', dispose);
  stream(res, 200, element, tree.bootstrapScriptContent);
}

const server = createServer(function answer(req, res) {
  const path = (req.url ?? '/').split('?', 1)[0];
  if (path === '/') stream(res, 200, home.element(), home.bootstrapScriptContent);
  else if (path === SUSPENSE_PATH) stream(res, 200, suspense.element(SUSPENSE_DELAY_MS), suspense.bootstrapScriptContent);
  else if (path === APP_LIST_PATH) streamAppPage(res, appList);
  else if (path === appDetail.path) streamAppPage(res, appDetail);
  else if (path === APP_JSON_PATH) {
    // The floor of a JSON resource route: the same items, stringified, and nothing else.
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ items: appListItems() }));
  } else stream(res, 404, notFoundElement());
});
server.listen(port, LOOPBACK);
