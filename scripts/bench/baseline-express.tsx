import express from 'express';
import { renderToPipeableStream } from 'react-dom/server';
import { createStatusPages } from '../../server/errors/status-pages.ts';
import { homeTree, BASELINE_NONCE } from './baseline-documents.tsx';
import { LOOPBACK } from '../lib/loopback.ts';
import { readBaselineEnv } from './baseline-env.ts';
import { exitOnStop } from './baseline-exit.ts';

/**
 * Baseline: Express 5 with no middleware at all, on its default settings. `/` streams the same
 * home tree as the product; every other path gets the product's 404 page as bytes computed
 * once. The floor of the framework we chose: the product's home and 404 are ratios to this.
 */
exitOnStop();
const { port, clientDir } = readBaselineEnv(process.env);
const home = homeTree(clientDir);
const notFoundBytes = Buffer.from(createStatusPages().status(404, BASELINE_NONCE));

const app = express();

app.get('/', function renderHome(_req, res) {
  const { pipe } = renderToPipeableStream(home.element(), {
    nonce: BASELINE_NONCE,
    bootstrapScriptContent: home.bootstrapScriptContent,
    onShellReady() {
      res.status(200).setHeader('Content-Type', 'text/html; charset=utf-8');
      pipe(res);
    },
    onShellError() {
      res.status(500).end();
    },
  });
});

app.use(function notFound(_req, res) {
  res.status(404).setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Length', notFoundBytes.length);
  res.end(notFoundBytes);
});

app.listen(port, LOOPBACK);
