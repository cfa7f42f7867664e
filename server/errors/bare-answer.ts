import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { HeaderPair } from '../http/response-head.ts';
import { NOTHING_TO_LOAD } from '../security/content-security-policy.ts';
import { helmetStaticHeaders } from '../security/security-headers.ts';

/**
 * The Cache-Control of every status page (server/http/html-headers.ts). A refusal must never be
 * stored: a cache that keeps errors would otherwise serve a 400 under a year-long asset URL.
 */
const NO_STORE = 'private, no-cache, no-store, max-age=0, must-revalidate';

let fixedHeaders: readonly HeaderPair[] | undefined;

/** helmet's headers (computed once, as for the app), no-store and a CSP: the same for every bare answer. */
function bareAnswerFixedHeaders(): readonly HeaderPair[] {
  fixedHeaders ??= [...helmetStaticHeaders(), ['Cache-Control', NO_STORE], ['Content-Security-Policy', NOTHING_TO_LOAD]];
  return fixedHeaders;
}

/**
 * A short plain answer for a request the app never saw (the parser refused it, or it is a CONNECT).
 * It carries the fixed headers of every status page and a fresh request id, made as
 * server/observability/request-id.ts makes one, so its log line can be found.
 */
export interface BareAnswer {
  readonly status: number;
  readonly requestId: string;
  readonly headers: readonly HeaderPair[];
  readonly body: string;
}

export function createBareAnswer(status: number, extraHeaders: readonly HeaderPair[] = []): BareAnswer {
  const body = `${status} ${STATUS_CODES[status] ?? 'Error'}\n`;
  const requestId = randomUUID();
  const headers: readonly HeaderPair[] = [
    ['X-Request-Id', requestId],
    ['Content-Type', 'text/plain; charset=utf-8'],
    ['Content-Length', String(Buffer.byteLength(body))],
    ...bareAnswerFixedHeaders(),
    ...extraHeaders,
    // The request's framing is unknown or broken: nothing after it on this connection can be read.
    ['Connection', 'close'],
  ];
  return { status, requestId, headers, body };
}

/** The answer as bytes for the socket, status line to body. */
export function serializeBareAnswer({ status, headers, body }: BareAnswer): string {
  const lines = headers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${lines}\r\n${body}`;
}
