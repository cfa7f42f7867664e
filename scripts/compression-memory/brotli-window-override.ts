import { createRequire } from 'node:module';
import type { BrotliCompress, BrotliOptions } from 'node:zlib';

/**
 * Makes every brotli compressor this process creates from now on use a window of 2^`lgwin` and
 * no size hint, its other params as its caller asked: the app's brotli as it was before its
 * window and hint were chosen, measured beside the app as it ships. The bundled app takes
 * Node's modules with `require` and reads `createBrotliCompress` off zlib's exports when it
 * calls it, so replacing it there reaches the app; the runner checks the window each answer
 * declares on the wire.
 */
export function overrideBrotliWindow(lgwin: number): void {
  const zlib: typeof import('node:zlib') = createRequire(import.meta.url)('node:zlib');
  const { BROTLI_PARAM_LGWIN, BROTLI_PARAM_SIZE_HINT } = zlib.constants;
  const create = zlib.createBrotliCompress;
  function createWithWindow(options?: BrotliOptions): BrotliCompress {
    const params = Object.entries(options?.params ?? {}).filter(([key]) => Number(key) !== BROTLI_PARAM_SIZE_HINT);
    return create({ ...options, params: { ...Object.fromEntries(params), [BROTLI_PARAM_LGWIN]: lgwin } });
  }
  // Read-only but configurable in Node 24.
  Object.defineProperty(zlib, 'createBrotliCompress', { value: createWithWindow });
}
