import { constants, createBrotliCompress, createGzip, type BrotliCompress, type Gzip } from 'node:zlib';
import type { Request, Response } from 'express';
import Negotiator from 'negotiator';

export type ContentEncoding = 'br' | 'gzip';

const ENCODINGS: readonly ContentEncoding[] = ['br', 'gzip'];

/**
 * The client's preferred encoding we support, or undefined for identity (RFC 9110 §12.5.3).
 * Browsers list `gzip` before `br` without weights; when weights say nothing, brotli wins.
 */
export function negotiateEncoding(req: Pick<Request, 'headers'>): ContentEncoding | undefined {
  if (req.headers['accept-encoding'] === undefined) return undefined;
  return new Negotiator(req).encoding(ENCODINGS, { preferred: ENCODINGS });
}

/**
 * Chooses the encoding of a page about to stream and says so in its headers. With
 * compression on, caches must key on `Accept-Encoding` whichever encoding this client gets.
 */
export function choosePageEncoding(req: Request, res: Response, enabled: boolean): ContentEncoding | undefined {
  if (!enabled) return undefined;
  res.vary('Accept-Encoding');
  const encoding = negotiateEncoding(req);
  if (encoding !== undefined) res.setHeader('Content-Encoding', encoding);
  return encoding;
}

/**
 * A compressor React can stream into, already piped to the response. React calls `flush()`
 * after each batch it writes; zlib then emits everything so far (a full flush), so the shell
 * and each boundary leave at once, compressed. Brotli at quality 4: most of brotli's gain over
 * gzip at a fraction of its default (11) cost, which would dominate a render.
 */
export function compressInto(res: Response, encoding: ContentEncoding): BrotliCompress | Gzip {
  const compressor = encoding === 'br' ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }) : createGzip({ level: 6 });
  compressor.pipe(res);
  // A client that goes away must not leave a zlib stream (and its native memory) behind;
  // React hears the compressor close and aborts the render.
  res.once('close', function releaseCompressor() {
    compressor.destroy();
  });
  return compressor;
}
