import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { renderToPipeableStream } from 'react-dom/server';
import { createStatusPages } from '../../server/errors/status-pages.ts';
import { homeTree, BASELINE_NONCE } from './baseline-documents.tsx';
import { LOOPBACK } from '../lib/loopback.ts';
import { readBaselineEnv } from './baseline-env.ts';
import { exitOnStop } from './baseline-exit.ts';
import { assetFile, firstLoadUrls } from '../lib/manifest-urls.ts';

/**
 * Baseline: `node:http` answering bytes computed at start, the absolute ceiling of this Node
 * on this machine. Serves the home page's first-load files with the headers the product's
 * static handler sends (the static-asset scenario is a ratio to this), the home document
 * rendered once, and the product's 404 page for every other path.
 */
exitOnStop();
const { port, clientDir } = readBaselineEnv(process.env);

interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | number>>;
  readonly body: Buffer;
}

function answer(status: number, contentType: string, body: Buffer, extra: Record<string, string> = {}): Answer {
  return { status, headers: { 'Content-Type': contentType, 'Content-Length': body.length, ...extra }, body };
}

const IMMUTABLE = { 'Cache-Control': 'public, max-age=31536000, immutable' };
const answers = new Map<string, Answer>();
for (const url of await firstLoadUrls(clientDir, '/')) {
  const body = readFileSync(assetFile(clientDir, url));
  answers.set(url, answer(200, 'text/javascript; charset=utf-8', body, IMMUTABLE));
}
const html = 'text/html; charset=utf-8';
const home = homeTree(clientDir);
// The whole document once, bootstrap scripts included, exactly as a streamed render ends up.
const document = new PassThrough();
const { pipe } = renderToPipeableStream(home.element(), {
  nonce: BASELINE_NONCE,
  bootstrapScriptContent: home.bootstrapScriptContent,
  onAllReady: () => pipe(document),
});
answers.set('/', answer(200, html, await buffer(document)));
const notFound = answer(404, html, Buffer.from(createStatusPages().status(404, BASELINE_NONCE)));

const server = createServer(function answerBytes(req, res) {
  const { status, headers, body } = answers.get((req.url ?? '/').split('?', 1)[0] ?? '/') ?? notFound;
  res.writeHead(status, headers);
  res.end(body);
});
server.listen(port, LOOPBACK);
