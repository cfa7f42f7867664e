import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import type { main as startMain } from './main.ts';

/**
 * Loads the server bundle with V8's code cache (docs/deployment.md#code-cache). Compiling the
 * bundle is a large part of a cold start: the first parse of its 1.7 MB, then every function
 * compiled on its first call while the server starts and answers. The build runs the server once
 * (fill-code-cache.ts) and keeps what V8 compiled by then; a start hands that back to V8, which
 * takes it instead of parsing and compiling again. Node's own compile cache
 * (`module.enableCompileCache()`) keeps only what is compiled before the code runs, about a
 * sixth of it, so the bundle is compiled here with `vm.Script`, whose cache can be made after.
 */

/** The server bundle (server/main.ts and what it imports), CommonJS for `vm.Script`, beside the entry. */
export const SERVER_BUNDLE = 'server.cjs';
/** V8's code for it, written by `npm run build` and read by every start; never written at run time. */
export const CODE_CACHE = 'server.cjs.code-cache';

/**
 * How this start compiled the server, in its "listening" line: `used`; `rejected` by V8 (made
 * by another Node version or with other V8 flags); `stale` (made for another bundle); `absent`;
 * `off` when source maps are on (`--enable-source-maps`, as `npm run dev` runs): Node applies
 * them only to what its own loader loads, so the bundle is `require`d and compiled as usual.
 */
export type CodeCacheUse = 'used' | 'rejected' | 'stale' | 'absent' | 'off';

export interface LoadedServer {
  readonly main: typeof startMain;
  readonly codeCache: CodeCacheUse;
  /** The cache file's bytes for what V8 has compiled of the bundle so far; undefined when it was `require`d. */
  codeCacheNow(): Buffer | undefined;
}

/**
 * The cache file starts with the bundle's length and CRC-32, as Node's own compile cache checks
 * them: V8 checks its version and flags, but of the source only the length, and code compiled
 * for another bundle of the same length would run as if it were this one.
 */
const HEADER_BYTES = 8;

function header(source: Buffer): Buffer {
  const bytes = Buffer.alloc(HEADER_BYTES);
  bytes.writeUInt32LE(source.length, 0);
  bytes.writeUInt32LE(crc32(source), 4);
  return bytes;
}

/** The cached code for exactly this source, `absent`, or `stale`. */
function readCodeCache(file: string, source: Buffer): Buffer | 'absent' | 'stale' {
  let cache: Buffer;
  try {
    cache = readFileSync(file);
  } catch {
    return 'absent';
  }
  return cache.length > HEADER_BYTES && cache.subarray(0, HEADER_BYTES).equals(header(source)) ? cache.subarray(HEADER_BYTES) : 'stale';
}

/**
 * Loads `dir`'s server bundle, without starting it. `forCodeCache` (the build) always compiles
 * with `vm.Script`, so the code can be written afterwards.
 */
export function loadServer(dir: string, { forCodeCache = false } = {}): LoadedServer {
  const file = join(dir, SERVER_BUNDLE);
  const require = createRequire(file);
  if (process.sourceMapsEnabled && !forCodeCache) {
    const { main } = require(file) as { main: typeof startMain };
    return { main, codeCache: 'off', codeCacheNow: () => undefined };
  }
  const source = readFileSync(file);
  const cache = forCodeCache ? 'absent' : readCodeCache(join(dir, CODE_CACHE), source);
  // The wrapper Node puts around a CommonJS module, on the bundle's first line so its lines keep their numbers.
  const compiled = new Script(`(function (exports, require, module, __filename, __dirname) {${source.toString('utf8')}\n})`, {
    filename: file,
    ...(typeof cache === 'string' ? {} : { cachedData: cache }),
  });
  const module = { exports: {} as { main: typeof startMain } };
  (compiled.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, require, module, file, dir);
  const codeCache = typeof cache === 'string' ? cache : compiled.cachedDataRejected === true ? 'rejected' : 'used';
  return { main: module.exports.main, codeCache, codeCacheNow: () => Buffer.concat([header(source), compiled.createCachedData()]) };
}

/** Replaces `dir`'s code cache at once: a start never reads half a file. */
export function writeCodeCache(dir: string, bytes: Buffer): void {
  const file = join(dir, CODE_CACHE);
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, bytes);
  renameSync(partial, file);
}
