import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ContentEncoding } from '../http/compression.ts';
import { negotiateEncoding } from '../http/compression.ts';
import { prepareHead, writePreparedHead, type PreparedHead } from '../http/response-head.ts';
import { NOTHING_TO_LOAD } from '../security/content-security-policy.ts';
import { securityHeaderDefaults } from '../security/security-headers.ts';

/** What the client build writes: scripts, their maps, stylesheets, and the images and fonts they name (scripts/client-build/asset-urls-plugin.ts). */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

/** Content-hashed names: the same URL never has other bytes, so caches may keep it a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A file's bytes with the whole head they are sent with. */
interface Encoded {
  readonly head: PreparedHead;
  readonly body: Buffer;
}

interface StaticFile {
  readonly identity: Encoded;
  /** The build's `.br` and `.gz` siblings, where compression made the file smaller. */
  readonly encoded: Partial<Record<ContentEncoding, Encoded>>;
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

/**
 * The head of a file's answer, made once: its type and caching, helmet's headers and
 * Permissions-Policy, and a policy that lets nothing run should the file be opened as a document.
 */
function headOf(type: string, body: Buffer, encoding?: ContentEncoding): PreparedHead {
  return prepareHead([
    ['Content-Type', type],
    ['Cache-Control', IMMUTABLE],
    ['Vary', 'Accept-Encoding'],
    ...(encoding === undefined ? [] : [['Content-Encoding', encoding] as const]),
    ['Content-Length', String(body.length)],
    ...securityHeaderDefaults(),
    ['Content-Security-Policy', NOTHING_TO_LOAD],
  ]);
}

function readFile(path: string, type: string): StaticFile {
  const body = readFileSync(path);
  const encoded: Partial<Record<ContentEncoding, Encoded>> = {};
  for (const [encoding, suffix] of SUFFIXES) {
    if (!existsSync(path + suffix)) continue;
    const bytes = readFileSync(path + suffix);
    encoded[encoding] = { head: headOf(type, bytes, encoding), body: bytes };
  }
  return { identity: { head: headOf(type, body), body }, encoded };
}

/**
 * A file the server makes at start rather than the build (the route table's module): compressed
 * here, as the build compresses its files. Brotli at quality 5: for a few kilobytes it is as small
 * as quality 11, in a fraction of a millisecond instead of several, which a cold start would pay.
 */
function madeFile(body: Buffer, type: string): StaticFile {
  // Stryker disable next-line ObjectLiteral: equivalent on the wire, other settings make other valid brotli and gzip; these only choose speed and size
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
  // Stryker disable next-line ObjectLiteral: equivalent, as above
  const gzip = gzipSync(body, { level: 9 });
  const encoded: Partial<Record<ContentEncoding, Encoded>> = {};
  // Stryker disable next-line EqualityOperator: equivalent, a copy the size of the file serves as well as the file
  if (br.length < body.length) encoded.br = { head: headOf(type, br, 'br'), body: br };
  // Stryker disable next-line EqualityOperator: equivalent, as above
  if (gzip.length < body.length) encoded.gzip = { head: headOf(type, gzip, 'gzip'), body: gzip };
  return { identity: { head: headOf(type, body), body }, encoded };
}

/** A file the server makes at start, served under its URL as the built files are. */
export interface MadeAsset {
  readonly url: string;
  readonly body: Buffer;
}

/**
 * The built client under `urlPath` (`/assets/`), served from memory: read once at start with
 * the compressed copies the build wrote beside each file (scripts/build-client.ts), so even an
 * instance's first visitor gets brotli or gzip; a build without them (`npm run dev`) is served
 * as it is; `made` adds the files the server makes at start (the route table's module). Only
 * those files exist here, so no spelling of `..` reaches anything else; unknown names under the
 * path fall through to the 404 page, labelled with the path's route pattern for logs and
 * metrics. A plain middleware rather than one mounted at the path: Express would rewrite and
 * restore `req.url` around it for every request.
 */
export function createStaticAssets(dir: string, urlPath: string, made: readonly MadeAsset[] = []): RequestHandler {
  const files = new Map<string, StaticFile>();
  for (const path of listFiles(dir)) {
    const type = CONTENT_TYPES[extname(path)];
    if (type === undefined) continue;
    files.set(`${urlPath}${relative(dir, path).split('\\').join('/')}`, readFile(path, type));
  }
  for (const { url, body } of made) {
    const type = CONTENT_TYPES[extname(url)];
    // Two answers for one URL would be a build bug, not a choice to make quietly.
    if (!url.startsWith(urlPath) || type === undefined || files.has(url)) throw new Error(`${url}: not a new ${urlPath} file of a known type`);
    files.set(url, madeFile(body, type));
  }
  const routePattern = `${urlPath}*`;

  return function serveAsset(req: Request, res: Response, next: NextFunction) {
    const path = req.path;
    if (!path.startsWith(urlPath)) {
      next();
      return;
    }
    res.locals.routePattern = routePattern;
    const file = req.method === 'GET' || req.method === 'HEAD' ? files.get(path) : undefined;
    if (file === undefined) {
      next();
      return;
    }
    const encoding = negotiateEncoding(req);
    const { head, body } = (encoding === undefined ? undefined : file.encoded[encoding]) ?? file.identity;
    writePreparedHead(res, 200, head);
    res.end(body);
  };
}
