import type { Request, Response } from 'express';

export const FAVICON_PATH = '/favicon.svg';

const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0b5fff"/><path d="M9 22V10h8a4 4 0 0 1 0 8h-8m8 0 5 4" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>';
const FAVICON_BYTES = Buffer.from(FAVICON_SVG);

/**
 * Every page links this icon, and `/favicon.ico` answers with it too, so no browser logs a
 * failed favicon request (docs/rendering.md).
 */
export function sendFavicon(_req: Request, res: Response): void {
  res.setHeader('Content-Type', 'image/svg+xml');
  res.setHeader('Cache-Control', 'public, max-age=86400');
  res.setHeader('Content-Length', FAVICON_BYTES.length);
  res.end(FAVICON_BYTES);
}
