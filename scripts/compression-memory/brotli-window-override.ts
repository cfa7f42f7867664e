import { createRequire } from 'node:module';
import type { BrotliCompress, BrotliOptions } from 'node:zlib';

/**
 * Makes every brotli compressor this process creates from now on use a window of 2^`lgwin`,
 * whatever its caller asked, so the measurement can run the app as it ships and with another
 * window side by side. The bundled app takes Node's modules with `require` and reads
 * `createBrotliCompress` off zlib's exports when it calls it, so replacing it there reaches the
 * app; the runner checks the window each answer declares on the wire.
 */
export function overrideBrotliWindow(lgwin: number): void {
  const zlib: typeof import('node:zlib') = createRequire(import.meta.url)('node:zlib');
  const create = zlib.createBrotliCompress;
  function createWithWindow(options?: BrotliOptions): BrotliCompress {
    return create({ ...options, params: { ...options?.params, [zlib.constants.BROTLI_PARAM_LGWIN]: lgwin } });
  }
  // Read-only but configurable in Node 24.
  Object.defineProperty(zlib, 'createBrotliCompress', { value: createWithWindow });
}
