import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** The `/assets/` URLs one page of a built client loads first: its entry, then its preloads. */
export async function firstLoadUrls(clientDir: string, page: string): Promise<string[]> {
  const file = join(clientDir, 'manifest.json');
  const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
  const pages = typeof parsed === 'object' && parsed !== null && 'pages' in parsed ? parsed.pages : undefined;
  const entry = typeof pages === 'object' && pages !== null ? Object.entries(pages).find(([name]) => name === page)?.[1] : undefined;
  if (typeof entry !== 'object' || entry === null || !('script' in entry) || typeof entry.script !== 'string') {
    throw new Error(`${file} has no page "${page}" (run npm run build)`);
  }
  const preloads = 'preloads' in entry && isStringArray(entry.preloads) ? entry.preloads : [];
  return [entry.script, ...preloads];
}

/** Where a `/assets/` URL of the manifest lives on disk. */
export function assetFile(clientDir: string, url: string): string {
  return join(clientDir, 'assets', url.replace(/^\/assets\//, ''));
}
