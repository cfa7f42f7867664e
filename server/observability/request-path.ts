import type { IncomingMessage } from 'node:http';
import { pathOfAbsoluteTarget } from '../http/request-target.ts';

/**
 * The request's path as received (routers may rewrite `req.url`), for the log: without its query
 * or fragment (either can carry tokens), and, for an absolute-form target, without its scheme and
 * authority (which can carry credentials).
 */
export function requestPath(req: IncomingMessage & { originalUrl?: string }): string {
  const target = req.originalUrl ?? req.url ?? '/';
  const path = target.startsWith('/') ? target : pathOfAbsoluteTarget(target);
  const query = path.indexOf('?');
  const fragment = path.indexOf('#');
  const end = query === -1 ? fragment : fragment === -1 ? query : Math.min(query, fragment);
  return end === -1 ? path : path.slice(0, end);
}
