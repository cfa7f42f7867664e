import type { IncomingMessage } from 'node:http';

/**
 * Where an absolute-form target's path begins (`http://user:secret@host/x?y`, RFC 9112 §3.2.2):
 * after its authority, which ends at the first `/`, `?` or `#`; without a path, the root.
 */
function pathOfAbsoluteTarget(target: string): string {
  const authority = target.indexOf('//');
  if (authority === -1) return target;
  for (let at = authority + 2; at < target.length; at += 1) {
    const character = target[at];
    if (character === '/') return target.slice(at);
    if (character === '?' || character === '#') return `/${target.slice(at)}`;
  }
  return '/';
}

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
