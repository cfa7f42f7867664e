import { createHash } from 'node:crypto';
import type { ClientRoute } from '../../shared/protocol/page-data.ts';
import { ASSETS_PATH } from './client-assets.ts';

/** The route table for in-place navigation as a file of its own, served beside the built client. */
export interface RouteTableModule {
  /** `/assets/routes-HASH.js`: the hash is of the bytes, so the URL never has other bytes and caches keep it a year. */
  readonly url: string;
  /** A JavaScript module whose default export is the table. */
  readonly body: Buffer;
}

/**
 * The table as a module the browser imports once and keeps, as React Router's manifest is, rather
 * than a copy inside every document: it lists every route, so it grows with the app while a page
 * stays the size it is. Made once, at start, from what the server routes; every instance of the
 * same build makes the same bytes and so the same URL.
 */
export function routeTableModule(routes: readonly ClientRoute[]): RouteTableModule {
  // A file, not a script inside HTML: JSON is a JavaScript expression as it is, `</script>` included.
  const body = Buffer.from(`export default ${JSON.stringify(routes)};\n`);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { url: `${ASSETS_PATH}routes-${hash}.js`, body };
}
