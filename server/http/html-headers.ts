import type { Response } from 'express';
import type { HeaderPair } from './response-head.ts';

/**
 * Headers of every HTML answer (docs/rendering.md): never cached (the nonce and request id differ
 * each time), and `X-Accel-Buffering: no` so nginx passes streamed bytes straight through.
 */
export const HTML_HEADERS: readonly HeaderPair[] = [
  ['Content-Type', 'text/html; charset=utf-8'],
  ['Cache-Control', 'private, no-cache, no-store, max-age=0, must-revalidate'],
  ['X-Accel-Buffering', 'no'],
];

export function setHtmlHeaders(res: Response): void {
  for (const [name, value] of HTML_HEADERS) res.setHeader(name, value);
}
