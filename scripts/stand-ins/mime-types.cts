/**
 * What the server bundle's Express, accepts, type-is and send get for `mime-types`
 * (scripts/build-server.ts swaps this file in for every import of it but the one below). The real
 * module parses mime-db's 200 KB of JSON and builds its lookup tables as it loads, which Express
 * would pay on every cold start when it is imported. The server needs a media type only where
 * Express works one out (`res.type()`, and `res.send()` or `res.json()` without a Content-Type
 * that names its charset; `req.accepts()` for a client that asks for JSON), never for a page, a
 * status page or a probe, so here each export is a getter that loads the real module the first
 * time any of them is read (lazy-exports.cts).
 */
const { lazyExports } = require('./lazy-exports.cts') as {
  lazyExports: <T extends object>(load: () => T, names: readonly (keyof T & string)[]) => T;
};

interface MimeTypes {
  charset(type: string): string | false;
  readonly charsets: { lookup(type: string): string | false };
  contentType(type: string): string | false;
  extension(type: string): string | false;
  readonly extensions: Readonly<Record<string, readonly string[]>>;
  lookup(path: string): string | false;
  readonly types: Readonly<Record<string, string>>;
}

/** mime-types 3's public exports. */
const MIME_TYPES_EXPORTS = ['charset', 'charsets', 'contentType', 'extension', 'extensions', 'lookup', 'types'] as const;

module.exports = lazyExports(() => require('mime-types') as MimeTypes, MIME_TYPES_EXPORTS);
