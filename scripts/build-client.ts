import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { join, relative, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { ASSETS_PATH, MANIFEST_FILE, type ClientManifest, type PageAssets } from '../server/render/client-assets.ts';
import { readDoor } from './client-build/door-imports.ts';
import { pageModulesPlugin, type ModuleFinisher } from './client-build/page-modules-plugin.ts';
import { findPageEntries, type PageEntries } from './client-build/route-table-reader.ts';
import { serverModulesPlugin } from './client-build/server-modules-plugin.ts';
import { assetUrlsPlugin } from './client-build/asset-urls-plugin.ts';
import { lazyChunksPlugin, type LazyChunk } from './client-build/lazy-chunks-plugin.ts';

export { findPageEntries, type LazyChunk, type PageEntries };

/** The framework's folder: this repository, or the installed package (node_modules/react-stream-shell). */
export const ROOT = resolve(import.meta.dirname, '..');

/**
 * A framework module the build names by path, as this build runs: the .ts source in the
 * repository, the compiled .js in the installed package (npm run package).
 */
export function frameworkModule(...path: readonly string[]): string {
  const file = join(ROOT, ...path);
  return import.meta.url.endsWith('.js') ? file.replace(/\.tsx?$/, '.js') : file;
}

/** The project being built: the folder the command runs in, whose `app/` is the app and whose `dist/` the build writes. */
export const PROJECT = process.cwd();

/** The app's route table, `app/routes.ts` of the project. */
export const APP_ROUTES = join(PROJECT, 'app', 'routes.ts');

/** The package's main door (package.json's `exports['.']`), whose names the client build imports from where they are defined. */
const MAIN_DOOR_FILE = frameworkModule('shared', 'index.ts');

export interface ClientBuildOptions {
  /** A module whose `routes` export is the route table; the page modules it names are the entries. */
  readonly routesModule: string;
  /** Output: the manifest (`MANIFEST_FILE`) here, the files served under `/assets/` in `assets/`. */
  readonly outDir: string;
  readonly mode: 'production' | 'development';
}

const ENTRY_NAMESPACE = 'page-entry';
const HYDRATE_MODULE = frameworkModule('client', 'hydrate-page.tsx');
/** The rules of what the framework's client shows (announcer, progress bar, status views): first in every page's stylesheet, so a page's own rules win. */
const FRAMEWORK_CSS = join(ROOT, 'client', 'framework.css');
/** What a page loads later by `import()`, each built as a file of its own (lazy-chunks-plugin.ts): the navigation runtime and telemetry. */
const LAZY_MODULES = [frameworkModule('client', 'router', 'create-router.ts'), frameworkModule('client', 'page-telemetry.ts')];

/**
 * One virtual entry per page module: its layouts' modules and its own (`modules`, outermost
 * first), hydrated when it is the document's page, loaded by a navigation otherwise. Nothing
 * else ships.
 */
function pageEntriesPlugin(files: ReadonlyMap<string, string>, layoutsOf: ReadonlyMap<string, readonly string[]>, first: string | undefined): esbuild.Plugin {
  return {
    name: 'page-entries',
    setup(build) {
      build.onResolve({ filter: /^page-entry:/ }, (args) => ({ path: args.path.slice('page-entry:'.length), namespace: ENTRY_NAMESPACE }));
      build.onLoad({ filter: /.*/, namespace: ENTRY_NAMESPACE }, (args) => {
        const file = files.get(args.path);
        if (file === undefined) return { errors: [{ text: `no page module named ${args.path}` }] };
        const branch = [...(layoutsOf.get(args.path) ?? []), file];
        return {
          // The framework's rules first, so the layouts' and the page's own win.
          contents: [
            ...(first === undefined ? [] : [`import ${JSON.stringify(first)};`]),
            `import ${JSON.stringify(FRAMEWORK_CSS)};`,
            ...branch.map((module, index) => `import * as m${index} from ${JSON.stringify(module)};`),
            `import { startPage } from ${JSON.stringify(HYDRATE_MODULE)};`,
            `export const modules = [${branch.map((_, index) => `m${index}`).join(', ')}];`,
            'startPage(modules);',
          ].join('\n'),
          resolveDir: ROOT,
          loader: 'tsx',
        };
      });
    },
  };
}

/** Static imports an output pulls in, transitively: what the page should modulepreload. */
export function staticImports(metafile: esbuild.Metafile, output: string, seen = new Set<string>()): Set<string> {
  for (const imported of metafile.outputs[output]?.imports ?? []) {
    if (imported.kind === 'import-statement' && !imported.external && !seen.has(imported.path)) {
      seen.add(imported.path);
      staticImports(metafile, imported.path, seen);
    }
  }
  return seen;
}

/** Fast Refresh in `dev` (scripts/dev/): what every page's entry imports first, and the last step of each module's text. */
export interface DevModules {
  readonly first: string;
  readonly finish: ModuleFinisher;
}

/** esbuild settings of the client build, shared by `build` and the watch mode of `dev` (which alone gives `dev`). */
export function clientBuildOptions(
  entries: PageEntries,
  {
    outDir,
    mode,
    dev,
    onLazyChunk,
  }: Omit<ClientBuildOptions, 'routesModule'> & { readonly dev?: DevModules | undefined; readonly onLazyChunk?: ((chunk: LazyChunk) => void) | undefined },
): esbuild.BuildOptions & { metafile: true } {
  const { files, layouts } = entries;
  return {
    entryPoints: Object.fromEntries([...files.keys()].map((name) => [name, `page-entry:${name}`])),
    // Layout modules lose their server exports as page modules do.
    plugins: [
      lazyChunksPlugin({ modules: LAZY_MODULES, onChunk: onLazyChunk }),
      pageEntriesPlugin(files, layouts, dev?.first),
      pageModulesPlugin({ pages: files.values(), layouts: [...layouts.values()].flat(), door: readDoor(MAIN_DOOR_FILE), finish: dev?.finish }),
      serverModulesPlugin(),
      // Images and fonts named by the pages' CSS and modules, copied beside the scripts.
      assetUrlsPlugin({ copyInto: join(outDir, 'assets') }),
    ],
    bundle: true,
    // A package reached through a symlink keeps the path it was reached by, as in a plain
    // install. Followed to its real place instead (StrykerJS's sandbox links node_modules; a
    // linked framework lives elsewhere), the paths that feed the files' hashes change, and with
    // them the names and the bundles' compressed size.
    preserveSymlinks: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    outdir: join(outDir, 'assets'),
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    minify: mode === 'production',
    sourcemap: mode === 'development' ? 'linked' : false,
    jsx: 'automatic',
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': JSON.stringify(mode) },
    metafile: true,
    logLevel: 'warning',
  };
}

/**
 * Maps each hydrating route to its page's entry file, the chunks it imports and its stylesheet,
 * as public URLs. esbuild writes the CSS an entry's modules import, statically or not, into one
 * file beside it (the entry's `cssBundle`; CSS is not split into chunks), so a page has one.
 */
export async function writeManifest(metafile: esbuild.Metafile, outDir: string, entries: PageEntries): Promise<Record<string, PageAssets>> {
  const assetsDir = join(outDir, 'assets');
  const url = (file: string) => `${ASSETS_PATH}${relative(assetsDir, resolve(PROJECT, file)).split('\\').join('/')}`;
  const byName = new Map<string, PageAssets>();
  for (const [output, meta] of Object.entries(metafile.outputs)) {
    if (meta.entryPoint === undefined || !meta.entryPoint.startsWith(`${ENTRY_NAMESPACE}:`)) continue;
    const name = meta.entryPoint.slice(ENTRY_NAMESPACE.length + 1);
    byName.set(name, { script: url(output), preloads: [...staticImports(metafile, output)].map(url), styles: meta.cssBundle === undefined ? [] : [url(meta.cssBundle)] });
  }
  const routes: Record<string, PageAssets> = {};
  for (const [path, name] of entries.routes) {
    const assets = byName.get(name);
    if (assets === undefined) throw new Error(`Route ${path}: the build wrote no entry for its page module ${entries.files.get(name) ?? name}`);
    routes[path] = assets;
  }
  const manifest: ClientManifest = { routes };
  await writeFile(join(outDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return routes;
}

export async function cleanClientOutput(outDir: string): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(join(outDir, 'assets'), { recursive: true });
}

/** esbuild could not build the pages: the message names the routes, the files, the lines and what esbuild said. */
export class ClientBuildError extends Error {
  override readonly name = 'ClientBuildError';
}

/**
 * Builds content-hashed ES modules with code splitting (each page loads only its own code
 * plus shared chunks) and writes the manifest the server reads once at start.
 */
export async function buildClient(options: ClientBuildOptions): Promise<Record<string, PageAssets>> {
  const entries = await findPageEntries(options.routesModule);
  await cleanClientOutput(options.outDir);
  let result: esbuild.BuildResult & { metafile: esbuild.Metafile };
  try {
    result = await esbuild.build({ ...clientBuildOptions(entries, options), logLevel: 'silent' });
  } catch (error) {
    throw new ClientBuildError(`The client build failed for ${routesOfFailure(error, entries)}`, { cause: error });
  }
  await precompressAssets(join(options.outDir, 'assets'));
  return writeManifest(result.metafile, options.outDir, entries);
}

/** Names the routes whose page modules esbuild could not build, with its messages. */
function routesOfFailure(error: unknown, entries: PageEntries): string {
  const errors: readonly esbuild.Message[] = typeof error === 'object' && error !== null && 'errors' in error && Array.isArray(error.errors) ? error.errors : [];
  const lines = errors.map((message) => `${message.location?.file ?? ''}${message.location ? `:${message.location.line}` : ''}: ${message.text}`);
  const failing = [...entries.routes].filter(([, name]) => {
    const file = entries.files.get(name) ?? '';
    return errors.some((message) => message.location !== null && message.location !== undefined && file.endsWith(message.location.file));
  });
  const named = failing.length > 0 ? failing.map(([path]) => `route ${path}`).join(', ') : 'the pages of the route table';
  return `${named}:\n${lines.join('\n')}`;
}

/** Images and fonts whose formats are compressed already: brotli at 11 would take long to save nothing. */
const ALREADY_COMPRESSED = /\.(?:png|jpe?g|gif|webp|avif|woff2?)$/i;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes `<file>.br` (brotli 11) and `<file>.gz` (gzip 9) beside every built file the
 * compression makes smaller. The server reads them at start, so the first visitor of a new
 * instance gets the compressed bundle too; the maximum levels cost build time, never requests.
 */
export async function precompressAssets(assetsDir: string): Promise<void> {
  const entries = await readdir(assetsDir, { withFileTypes: true, recursive: true });
  const files = entries
    .filter((entry) => entry.isFile() && !/\.(?:br|gz)$/.test(entry.name) && !ALREADY_COMPRESSED.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
  await Promise.all(
    files.map(async (file) => {
      const identity = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
        gzipAsync(identity, { level: 9 }),
      ]);
      if (br.length < identity.length) await writeFile(`${file}.br`, br);
      if (gz.length < identity.length) await writeFile(`${file}.gz`, gz);
    }),
  );
}
