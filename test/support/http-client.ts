import { request, type IncomingHttpHeaders } from 'node:http';
import { createHttpServer, type HttpServerOptions } from '../../server/http-server.ts';
import type { Express } from 'express';
import type { Server } from 'node:http';

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
export async function listen(app: Express, options: HttpServerOptions = {}): Promise<{ server: Server; origin: string }> {
  const server = createHttpServer(app, options);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  const { port } = address;
  return { server, origin: `http://127.0.0.1:${port}` };
}

export function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** GET that records when each chunk of the body arrived, to check streaming order on the wire. */
export function getTimed(url: string, headers: Record<string, string> = {}): Promise<StreamedResponse> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // No keep-alive agent: each request's socket closes with it, so tests leave nothing open.
    const req = request(url, { headers, agent: false }, (res) => {
      const chunks: TimedChunk[] = [];
      res.setEncoding('utf8');
      res.on('data', (text: string) => chunks.push({ at: performance.now() - started, text }));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, chunks, body: chunks.map((c) => c.text).join('') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
