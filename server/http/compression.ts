import { constants, createBrotliCompress, createGzip, type BrotliCompress, type BrotliOptions, type Gzip, type ZlibOptions } from 'node:zlib';
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
 * Brotli for pages as they stream (docs/deployment.md#compression-memory has the figures).
 * - Quality 4: most of brotli's gain over gzip at a fraction of the cost of its default (11),
 *   which would dominate a render and hold about six times the native memory.
 * - A 256 KiB window (lgwin 18) instead of Node's 4 MiB (22): the encoder's window, and the
 *   blocks it gathers before it emits them, grow with the page up to that bound, while quality
 *   4's match finder, which keeps only recent positions, found almost nothing further back.
 *   Decoders then need only that window too.
 * - A size hint below 1 MiB: a streamed page's size is unknown, and without a hint the encoder
 *   takes its first write's; from 1 MiB on, quality 4 then uses a match finder of 4 MiB instead
 *   of 512 KiB. Such pages come out a little larger (9% for a 3 MB shell), and no encoder
 *   measured, on pages up to 3 MB, went past 3 MiB.
 */
const BROTLI_STREAM: BrotliOptions = {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 4,
    [constants.BROTLI_PARAM_LGWIN]: 18,
    [constants.BROTLI_PARAM_SIZE_HINT]: 256 * 1024,
  },
};

/** zlib's default window and memory level: about 0.4 MiB per stream, measured beside brotli's. */
const GZIP_STREAM: ZlibOptions = { level: 6 };

/**
 * A compressor React can stream into, already piped to the response. React calls `flush()`
 * after each batch it writes; zlib then emits everything so far (a full flush), so the shell
 * and each boundary leave at once, compressed.
 */
export function compressInto(res: Response, encoding: ContentEncoding): BrotliCompress | Gzip {
  const compressor = encoding === 'br' ? createBrotliCompress(BROTLI_STREAM) : createGzip(GZIP_STREAM);
  compressor.pipe(res);
  // A client that goes away must not leave a zlib stream (and its native memory) behind;
  // React hears the compressor close and aborts the render.
  res.on('close', function releaseCompressor() {
    compressor.destroy();
  });
  // pipe() does not pass a compressor's failure on (zlib out of memory, say): unheard, it would
  // be an uncaught exception. The answer is cut instead, so the client cannot take what it got
  // for a whole page, and whatever wrote into it hears the response close.
  compressor.once('error', function compressorFailed() {
    res.destroy();
  });
  return compressor;
}
