import type { Request } from 'express';

/**
 * Whether the client prefers JSON to HTML (docs/status-pages.md#json-answers): a status answer is
 * then JSON, and so is a page's failure that a route's `ErrorBoundary` would show in HTML.
 */
export function prefersJson(req: Request): boolean {
  // Most requests never mention JSON: skip parsing their Accept header.
  const accept = req.headers.accept;
  if (accept === undefined || (!accept.includes('json') && !accept.includes('application/*'))) return false;
  // `accepts` returns the first listed type on ties and for `*/*`, so HTML wins unless JSON
  // is explicitly preferred.
  return req.accepts(['html', 'json']) === 'json';
}
