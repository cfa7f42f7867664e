import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type * as esbuild from 'esbuild';
import { ASSETS_PATH } from '../../server/render/client-assets.ts';

/** Images and fonts a stylesheet's `url()` or a module's `import` may name: each becomes a built file under /assets/. */
export const ASSET_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.gif', '.webp', '.avif', '.svg', '.ico', '.woff', '.woff2'] as const;

/** An asset's path, with the query or fragment a stylesheet may give it (`icons.svg#close`, `face.woff2?v=2`). */
const ASSET_FILE = new RegExp(`\\.(?:${ASSET_EXTENSIONS.map((extension) => extension.slice(1)).join('|')})(?:[?#].*)?$`, 'i');
const ASSET_URL_NAMESPACE = 'asset-url';

/**
 * `logo-3FA9C2D1E0B4.png`: the name and a hash of the bytes, so a changed file gets a new URL that
 * caches may keep a year. The name keeps letters, digits, `_` and `-` (`my logo.png` gives
 * `my-logo-…`): the URL then needs no escaping, and the path a browser asks for is the file's.
 */
async function builtName(file: string): Promise<string> {
  const bytes = await readFile(file);
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12).toUpperCase();
  const extension = extname(file);
  const name = basename(file, extension).replace(/[^A-Za-z0-9_-]+/g, '-');
  return `${name}-${hash}${extension.toLowerCase()}`;
}

/**
 * Images and fonts by their public URL (docs/styles.md#images-and-fonts): a stylesheet's
 * `url(./logo.png)` becomes `url(/assets/logo-<hash>.png)`, and a module's
 * `import logo from './logo.png'` the same URL as a string, in the browser's code and the
 * server's alike, since the name comes from the file's bytes. The URL is absolute because a small
 * stylesheet is inlined into the document, where a relative one would resolve against the page.
 * With `copyInto` (the client build's assets folder), each file is copied there under that name:
 * the client build copies what the pages' code and stylesheets name, the server's build what
 * only the server names (a head's `og:image`, a resource route's). esbuild's own `file` loader
 * would need `publicPath`, which also turns every chunk import of the page scripts into an
 * absolute path, bytes the navigation runtime's budget has no room for. Only relative paths are
 * read: an image imported from a package is not built here (esbuild says it has no loader).
 */
export function assetUrlsPlugin({ copyInto }: { readonly copyInto?: string } = {}): esbuild.Plugin {
  return {
    name: 'asset-urls',
    setup(build) {
      build.onResolve({ filter: ASSET_FILE }, async (args) => {
        // Stryker disable next-line all: equivalent; a shortcut, such a URL names no file here, and one that is not there is left to esbuild as well
        if (args.path.startsWith('data:') || /^[a-z]+:\/\//i.test(args.path)) return undefined;
        // A root-relative URL in a stylesheet names the site's own path (a file the proxy serves),
        // not a file beside it: it stays as written. esbuild alone would look for it on the disk.
        if (args.path.startsWith('/')) return args.kind === 'url-token' ? { path: args.path, external: true } : undefined;
        const suffixAt = args.path.search(/[?#]/);
        const suffix = suffixAt === -1 ? '' : args.path.slice(suffixAt);
        const file = join(args.resolveDir, suffixAt === -1 ? args.path : args.path.slice(0, suffixAt));
        const name = await builtName(file).catch(() => undefined);
        // A file that is not there: esbuild says so, naming the importer.
        if (name === undefined) return undefined;
        if (copyInto !== undefined) {
          await mkdir(copyInto, { recursive: true });
          await copyFile(file, join(copyInto, name));
        }
        const url = `${ASSETS_PATH}${name}`;
        // In a stylesheet the URL stays as written, its fragment or query kept; in a module it is the default export.
        if (args.kind === 'url-token') return { path: `${url}${suffix}`, external: true, watchFiles: [file] };
        return { path: url, namespace: ASSET_URL_NAMESPACE, watchFiles: [file] };
      });
      // Stryker disable next-line Regex: equivalent; every path in the namespace is a URL, never empty
      build.onLoad({ filter: /.*/, namespace: ASSET_URL_NAMESPACE }, (args) => ({ contents: `export default ${JSON.stringify(args.path)};`, loader: 'js' }));
    },
  };
}
