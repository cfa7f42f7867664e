import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Public URL prefix of built client files (docs/rendering.md). */
export const ASSETS_PATH = '/assets/';

/** What one page needs in the browser: its entry module and the chunks it imports. */
export interface PageAssets {
  readonly script: string;
  readonly preloads: readonly string[];
}

export interface ClientAssets {
  /** Folder holding the built files served under `/assets/` (the `assets/` beside the manifest). */
  readonly dir: string;
  readonly pages: ReadonlyMap<string, PageAssets>;
}

/** The manifest `scripts/build.ts` writes beside the client files. */
export interface ClientManifest {
  readonly pages: Readonly<Record<string, PageAssets>>;
}

export const MANIFEST_FILE = 'manifest.json';

function isPageAssets(value: unknown): value is PageAssets {
  if (typeof value !== 'object' || value === null) return false;
  if (!('script' in value) || !('preloads' in value)) return false;
  const { script, preloads } = value;
  return typeof script === 'string' && Array.isArray(preloads) && preloads.every((p) => typeof p === 'string');
}

/** Reads the build manifest once, at start. A missing or broken manifest stops the start. */
export function loadClientAssets(dir: string): ClientAssets {
  const file = join(dir, MANIFEST_FILE);
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || !('pages' in parsed) || typeof parsed.pages !== 'object' || parsed.pages === null) {
    throw new Error(`${file} is not a client manifest (run npm run build)`);
  }
  const pages = new Map<string, PageAssets>();
  for (const [name, entry] of Object.entries(parsed.pages)) {
    if (!isPageAssets(entry)) throw new Error(`${file}: page "${name}" has no script`);
    pages.set(name, { script: entry.script, preloads: entry.preloads });
  }
  return { dir: join(dir, 'assets'), pages };
}
