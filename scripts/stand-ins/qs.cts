/**
 * What the server bundle's Express and body-parser get for `qs` (scripts/build-server.ts swaps
 * this file in for every import of it but the one below). The real module builds its helpers
 * and loads side-channel and its intrinsics as it loads, about a millisecond of every cold start,
 * for the "extended" query and form parsing the product never asks for. Each export is a getter
 * that loads the real module the first time any of them is read (lazy-exports.cts).
 */
const { lazyExports } = require('./lazy-exports.cts') as {
  lazyExports: <T extends object>(load: () => T, names: readonly (keyof T & string)[]) => T;
};

interface Qs {
  readonly parse: unknown;
  readonly stringify: unknown;
  readonly formats: unknown;
}

/** qs 6's public exports. */
const QS_EXPORTS = ['parse', 'stringify', 'formats'] as const;

module.exports = lazyExports(() => require('qs') as Qs, QS_EXPORTS);
