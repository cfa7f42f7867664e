import type { IncomingMessage } from 'node:http';
import { originForm } from '../http/request-target.ts';

/**
 * The most of a path a log line holds. A target can be as long as Node's 16 KiB header limit
 * (the 414 page answers those over 8,192 characters): in full, one line would be that long, and
 * log pipelines split lines past 16 KiB (Docker's json-file driver does), breaking the JSON.
 */
export const MAX_LOGGED_PATH = 2_048;

/**
 * The request's path as received (routers may rewrite `req.url`), for the log: without its query
 * or fragment (either can carry tokens), and, for an absolute-form target, without its scheme and
 * authority (which can carry credentials); past MAX_LOGGED_PATH characters, its start and how many
 * characters were left out.
 */
export function requestPath(req: IncomingMessage & { originalUrl?: string }): string {
  // A target the app could not read stays in originalUrl as it came (request-target.ts).
  const path = originForm(req.originalUrl ?? req.url ?? '/');
  const query = path.indexOf('?');
  const bare = query === -1 ? path : path.slice(0, query);
  return bare.length > MAX_LOGGED_PATH ? `${bare.slice(0, MAX_LOGGED_PATH)}…(+${bare.length - MAX_LOGGED_PATH})` : bare;
}
