import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
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
  /** The build's `.br` and `.gz` siblings, where compression made the file smaller. */
  readonly encoded: Partial<Record<ContentEncoding, Buffer>>;
}

/** Each encoding the build writes beside an asset, with its file suffix. */
const SUFFIXES: ReadonlyArray<readonly [ContentEncoding, string]> = [
  ['br', '.br'],
  ['gzip', '.gz'],
];

function listFiles(dir: string): string[] {
  // No folder, no files: loadClientAssets has already refused a missing build in production.
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

function readEncoded(path: string): Partial<Record<ContentEncoding, Buffer>> {
  const encoded: Partial<Record<ContentEncoding, Buffer>> = {};
  for (const [encoding, suffix] of SUFFIXES) {
    if (existsSync(path + suffix)) encoded[encoding] = readFileSync(path + suffix);
  }
  return encoded;
}

/**
 * The built client, served from memory: read once at start with the compressed copies the
 * build wrote beside each file (scripts/build-client.ts), so even an instance's first visitor
 * gets brotli or gzip; a build without them (`npm run dev`) is served as it is. Only files
 * the build wrote exist here, so no spelling of `..` reaches anything else; unknown names fall
 * through to the 404 page.
 */
export function createStaticAssets(dir: string): RequestHandler {
  const files = new Map<string, StaticFile>();
  for (const path of listFiles(dir)) {
    const type = CONTENT_TYPES[extname(path)];
    if (type === undefined) continue;
    files.set(`/${relative(dir, path).split('\\').join('/')}`, { type, identity: readFileSync(path), encoded: readEncoded(path) });
  }

  return function serveAsset(req: Request, res: Response, next: NextFunction) {
    const file = req.method === 'GET' || req.method === 'HEAD' ? files.get(req.path) : undefined;
    if (file === undefined) {
      next();
      return;
    }
    const encoding = negotiateEncoding(req);
    const encoded = encoding === undefined ? undefined : file.encoded[encoding];
    const body = encoded ?? file.identity;
    res.setHeader('Content-Type', file.type);
    res.setHeader('Cache-Control', IMMUTABLE);
    res.setHeader('Vary', 'Accept-Encoding');
    if (encoded !== undefined && encoding !== undefined) res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', body.length);
    res.end(body);
  };
}
