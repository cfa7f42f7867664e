import { join } from 'node:path';
import { loadClientAssets } from '../../server/render/client-assets.ts';

/** The `/assets/` URLs one route of a built client loads first: its entry, then its preloads. */
export async function firstLoadUrls(clientDir: string, route: string): Promise<string[]> {
  const entry = loadClientAssets(clientDir).routes.get(route);
  if (entry === undefined) throw new Error(`${clientDir} has no hydrating route "${route}" (run npm run build)`);
  return [entry.script, ...entry.preloads];
}

/** Where a `/assets/` URL of the manifest lives on disk. */
export function assetFile(clientDir: string, url: string): string {
  return join(clientDir, 'assets', url.replace(/^\/assets\//, ''));
}
