import type { IncomingMessage } from 'node:http';
import { originForm } from '../http/request-target.ts';

/**
 * The request's path as received (routers may rewrite `req.url`), for the log: without its query
 * or fragment (either can carry tokens), and, for an absolute-form target, without its scheme and
 * authority (which can carry credentials).
 */
export function requestPath(req: IncomingMessage & { originalUrl?: string }): string {
  // A target the app could not read stays in originalUrl as it came (request-target.ts).
  const path = originForm(req.originalUrl ?? req.url ?? '/');
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
}
