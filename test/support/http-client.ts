import { request, type IncomingHttpHeaders, type RequestListener } from 'node:http';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { createHttpServer, type HttpServerOptions } from '../../server/lifecycle/http-server.ts';
import type { Server } from 'node:http';
import { DESKTOP_CHROME } from '../../scripts/lib/http-get.ts';

export { DESKTOP_CHROME };

export interface TimedChunk {
  /** Milliseconds since the request was sent. */
  readonly at: number;
  readonly text: string;
}

export interface StreamedResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly chunks: readonly TimedChunk[];
  readonly body: string;
}

/** Listens on a free loopback port for one test, with the server main.ts runs; close() when done. */
export async function listen(app: RequestListener, options: HttpServerOptions = {}): Promise<{ server: Server; origin: string }> {
  const server = createHttpServer(app, options);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  const { port } = address;
  return { server, origin: `http://127.0.0.1:${port}` };
}

/** Servers listenForTest started in this test file, closed by closeTestServers. */
const testServers: Server[] = [];

/** listen(), remembered so that closeTestServers (a file's afterEach) closes it. */
export async function listenForTest(app: RequestListener, options: HttpServerOptions = {}): Promise<{ server: Server; origin: string; port: number }> {
  const listening = await listen(app, options);
  testServers.push(listening.server);
  return { ...listening, port: Number(new URL(listening.origin).port) };
}

/** Closes every server listenForTest started; for a test file's afterEach. */
export async function closeTestServers(): Promise<void> {
  await Promise.all(testServers.splice(0).map(close));
}

export function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * GET as a desktop browser that records when each chunk of the body arrived, to check
 * streaming order on the wire. Headers given here win over the defaults.
 */
export function getTimed(url: string, headers: Record<string, string> = {}): Promise<StreamedResponse> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // No keep-alive agent: each request's socket closes with it, so tests leave nothing open.
    const req = request(url, { headers: { 'User-Agent': DESKTOP_CHROME, ...headers }, agent: false }, (res) => {
      const chunks: TimedChunk[] = [];
      res.setEncoding('utf8');
      res.on('data', (text: string) => chunks.push({ at: performance.now() - started, text }));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, chunks, body: chunks.map((c) => c.text).join('') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export interface DecodedResponse {
  readonly encoding: string | undefined;
  readonly vary: string | undefined;
  readonly chunks: readonly TimedChunk[];
}

/** Decompresses as bytes arrive, stamping each piece of decoded text with its arrival time. */
export function getDecoded(url: string, acceptEncoding: string): Promise<DecodedResponse> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { agent: false, headers: { 'User-Agent': DESKTOP_CHROME, 'Accept-Encoding': acceptEncoding } }, (res) => {
      const encoding = res.headers['content-encoding'];
      const decoder = encoding === 'br' ? createBrotliDecompress() : encoding === 'gzip' ? createGunzip() : undefined;
      const chunks: TimedChunk[] = [];
      const source = decoder === undefined ? res : res.pipe(decoder);
      source.on('data', (chunk: Buffer) => chunks.push({ at: performance.now() - started, text: chunk.toString() }));
      source.on('end', () => resolve({ encoding, vary: res.headers.vary, chunks }));
      source.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The bytes on the wire as a browser asking for `acceptEncoding` gets them, not decompressed by a client library. */
export function getRaw(url: string, acceptEncoding: string): Promise<{ readonly encoding: string | undefined; readonly body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { 'User-Agent': DESKTOP_CHROME, 'Accept-Encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** When the first chunk holding `marker` arrived, in ms after the request was sent. */
export function arrival(response: { readonly chunks: readonly TimedChunk[] }, marker: string): number {
  const chunk = response.chunks.find((candidate) => candidate.text.includes(marker));
  if (chunk === undefined) throw new Error(`${marker} never arrived`);
  return chunk.at;
}
