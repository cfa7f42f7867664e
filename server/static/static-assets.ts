import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ContentEncoding } from '../render/compression.ts';
import { negotiateEncoding } from '../render/compression.ts';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
};

/** Content-hashed names: the same URL never has other bytes, so caches may keep it a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

interface StaticFile {
  readonly type: string;
  readonly identity: Buffer;
  /** Filled in the background after the first request that could use it. */
  readonly encoded: Partial<Record<ContentEncoding, Buffer>>;
  readonly pending: Set<ContentEncoding>;
}

function listFiles(dir: string): string[] {
  // No folder, no files: loadClientAssets has already refused a missing build in production.
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

function compressInBackground(file: StaticFile, encoding: ContentEncoding): void {
  if (file.pending.has(encoding)) return;
  file.pending.add(encoding);
  const done = (error: Error | null, result: Buffer) => {
    if (error === null && result.length < file.identity.length) file.encoded[encoding] = result;
  };
  if (encoding === 'br') {
    brotliCompress(file.identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: file.identity.length } }, done);
  } else {
    gzip(file.identity, { level: 9 }, done);
  }
}

/**
 * The built client, served from memory: read once at start, compressed once (off the main
 * thread) the first time a client can take it. Only files the build wrote exist here, so no
 * spelling of `..` reaches anything else; unknown names fall through to the 404 page.
 */
export function createStaticAssets(dir: string): RequestHandler {
  const files = new Map<string, StaticFile>();
  for (const path of listFiles(dir)) {
    const type = CONTENT_TYPES[extname(path)];
    if (type === undefined) continue;
    files.set(`/${relative(dir, path).split('\\').join('/')}`, { type, identity: readFileSync(path), encoded: {}, pending: new Set() });
  }

  return function serveAsset(req: Request, res: Response, next: NextFunction) {
    const file = req.method === 'GET' || req.method === 'HEAD' ? files.get(req.path) : undefined;
    if (file === undefined) {
      next();
      return;
    }
    const encoding = negotiateEncoding(req);
    const encoded = encoding === undefined ? undefined : file.encoded[encoding];
    if (encoding !== undefined && encoded === undefined) compressInBackground(file, encoding);
    const body = encoded ?? file.identity;
    res.setHeader('Content-Type', file.type);
    res.setHeader('Cache-Control', IMMUTABLE);
    res.setHeader('Vary', 'Accept-Encoding');
    if (encoded !== undefined && encoding !== undefined) res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', body.length);
    res.end(body);
  };
}
