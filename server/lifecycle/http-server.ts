import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';

export interface HttpServerOptions {
  readonly keepAliveTimeoutMs?: number;
  readonly headersTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  /** How often Node checks the headers and request timeouts (its default is 30 s). */
  readonly connectionsCheckingIntervalMs?: number;
  readonly logger?: Logger;
}

/** Errors Node's parser raises before Express sees a request, mapped to their status. */
function statusForClientError(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (code === 'HPE_URI_TOO_LONG') return 414;
  return 400;
}

/** A short plain answer written straight to the socket: the app never saw this request. */
function writeBareAnswer(socket: Duplex, status: number, extraHeaders = ''): void {
  const body = `${status} ${STATUS_CODES[status] ?? 'Error'}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extraHeaders}Connection: close\r\n\r\n${body}`,
  );
}

/**
 * The Node server around the app, as main.ts and the tests run it: the app (not Node) answers
 * a missing Host with its 400 page; requests Node's parser refuses get a short, clear status
 * instead of a bare one; CONNECT (we are no proxy) gets 405 rather than a dropped socket.
 */
export function createHttpServer(app: RequestListener, options: HttpServerOptions = {}): Server {
  const server = createServer(
    {
      requireHostHeader: false,
      ...(options.keepAliveTimeoutMs === undefined ? {} : { keepAliveTimeout: options.keepAliveTimeoutMs }),
      ...(options.headersTimeoutMs === undefined ? {} : { headersTimeout: options.headersTimeoutMs }),
      ...(options.requestTimeoutMs === undefined ? {} : { requestTimeout: options.requestTimeoutMs }),
      ...(options.connectionsCheckingIntervalMs === undefined ? {} : { connectionsCheckingInterval: options.connectionsCheckingIntervalMs }),
    },
    app,
  );

  server.on('clientError', function answerClientError(error: NodeJS.ErrnoException, socket: Duplex) {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = statusForClientError(error.code);
    options.logger?.info({ status, code: error.code ?? null }, 'request refused by the HTTP parser');
    writeBareAnswer(socket, status);
  });

  server.on('connect', function refuseConnect(_req: IncomingMessage, socket: Duplex) {
    options.logger?.info({ status: 405, method: 'CONNECT' }, 'CONNECT refused: not a proxy');
    writeBareAnswer(socket, 405, 'Allow: GET, HEAD\r\n');
  });

  return server;
}
