import { createServer, type ServerResponse } from 'node:http';
import type { ReactElement } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { homeTree, notFoundElement, suspenseTree, BASELINE_NONCE } from './baseline-documents.tsx';
import { LOOPBACK } from '../lib/loopback.ts';
import { readBaselineEnv } from './baseline-env.ts';
import { exitOnStop } from './baseline-exit.ts';
import { SUSPENSE_DELAY_MS, SUSPENSE_PATH } from './suspense-fixture.ts';

/**
 * Baseline: bare `node:http` streaming the same React trees as the product with
 * `renderToPipeableStream` (the Suspense page as the fixture build serves it: hydrating, with
 * its data script), and nothing else (no logging, headers, nonce or timeouts). The
 * floor of React streaming on this Node: the product's Suspense, memory and cold-start figures
 * are ratios to this server.
 */
exitOnStop();
const { port, clientDir, fixtureClientDir } = readBaselineEnv(process.env);
if (fixtureClientDir === undefined) throw new Error("BENCH_FIXTURE_CLIENT_DIR is not set: the folder of the fixture build's client");
const home = homeTree(clientDir);
const suspense = suspenseTree(fixtureClientDir);

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

const server = createServer(function answer(req, res) {
  const path = (req.url ?? '/').split('?', 1)[0];
  if (path === '/') stream(res, 200, home.element(), home.bootstrapScriptContent);
  else if (path === SUSPENSE_PATH) stream(res, 200, suspense.element(SUSPENSE_DELAY_MS), suspense.bootstrapScriptContent);
  else stream(res, 404, notFoundElement());
});
server.listen(port, LOOPBACK);
