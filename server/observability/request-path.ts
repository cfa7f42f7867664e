import type { IncomingMessage } from 'node:http';

/** The request's path without its query, as received (routers may rewrite `req.url`). */
export function requestPath(req: IncomingMessage & { originalUrl?: string }): string {
  const url = req.originalUrl ?? req.url ?? '/';
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? url : url.slice(0, queryStart);
}
