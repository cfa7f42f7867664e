import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** What an import without an extension may name, tried in this order (as esbuild does). */
const EXTENSIONS = ['.tsx', '.ts', '.jsx', '.js'];

export function isRelativeSpecifier(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../');
}

/** The file a relative import in `importer` names, or undefined when there is none. */
export function resolveRelativeModule(importer: string, specifier: string): string | undefined {
  const base = resolve(dirname(importer), specifier);
  const candidates = [base, ...EXTENSIONS.map((extension) => `${base}${extension}`), ...EXTENSIONS.map((extension) => join(base, `index${extension}`))];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}
