import type { Response } from 'express';

/**
 * Headers of every HTML answer (docs/rendering.md): never cached (the nonce and request id differ
 * each time), and `X-Accel-Buffering: no` so nginx passes streamed bytes straight through.
 */
export function setHtmlHeaders(res: Response): void {
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'private, no-cache, no-store, max-age=0, must-revalidate');
  res.setHeader('X-Accel-Buffering', 'no');
}
