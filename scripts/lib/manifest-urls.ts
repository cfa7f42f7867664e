import { join } from 'node:path';
import { loadClientAssets } from '../../server/render/client-assets.ts';

/** The `/assets/` URLs one page of a built client loads first: its entry, then its preloads. */
export async function firstLoadUrls(clientDir: string, page: string): Promise<string[]> {
  const entry = loadClientAssets(clientDir).pages.get(page);
  if (entry === undefined) throw new Error(`${clientDir} has no page "${page}" (run npm run build)`);
  return [entry.script, ...entry.preloads];
}

/** Where a `/assets/` URL of the manifest lives on disk. */
export function assetFile(clientDir: string, url: string): string {
  return join(clientDir, 'assets', url.replace(/^\/assets\//, ''));
}
