import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** docs/observability.md: letters, digits, `-`, `_`, `.`, at most 128 characters. */
export const VALID_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Keeps a well-formed incoming `X-Request-Id` (so a proxy's id follows the request through),
 * replaces anything else, and echoes the id on the response.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}
