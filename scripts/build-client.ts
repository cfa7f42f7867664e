import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { basename, extname, join, relative, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { ASSETS_PATH, MANIFEST_FILE, type ClientManifest, type PageAssets } from '../server/render/client-assets.ts';

export const ROOT = resolve(import.meta.dirname, '..');

export interface ClientBuildOptions {
  /** Folder of page modules; each `<name>.tsx` becomes the hydrating entry of page `<name>`. */
  readonly pagesDir: string;
  /** Output: the manifest (`MANIFEST_FILE`) here, the files served under `/assets/` in `assets/`. */
  readonly outDir: string;
  readonly mode: 'production' | 'development';
}

const ENTRY_NAMESPACE = 'page-entry';
const HYDRATE_MODULE = join(ROOT, 'client', 'hydrate-page.tsx');

/** One virtual entry per page module: import the page, hydrate it. Nothing else ships. */
function pageEntriesPlugin(pagesDir: string): esbuild.Plugin {
  return {
    name: 'page-entries',
    setup(build) {
      build.onResolve({ filter: /^page-entry:/ }, (args) => ({ path: args.path.slice('page-entry:'.length), namespace: ENTRY_NAMESPACE }));
      build.onLoad({ filter: /.*/, namespace: ENTRY_NAMESPACE }, (args) => ({
        contents: [
          `import Page from ${JSON.stringify(join(pagesDir, `${args.path}.tsx`))};`,
          `import { hydratePage } from ${JSON.stringify(HYDRATE_MODULE)};`,
          'hydratePage(Page);',
        ].join('\n'),
        resolveDir: ROOT,
        loader: 'tsx',
      }));
    },
  };
}

export async function pageNames(pagesDir: string): Promise<string[]> {
  const files = await readdir(pagesDir);
  return files.filter((file) => extname(file) === '.tsx').map((file) => basename(file, '.tsx')).sort();
}

/** Static imports an output pulls in, transitively: what the page should modulepreload. */
function staticImports(metafile: esbuild.Metafile, output: string, seen = new Set<string>()): Set<string> {
  for (const imported of metafile.outputs[output]?.imports ?? []) {
    if (imported.kind === 'import-statement' && !imported.external && !seen.has(imported.path)) {
      seen.add(imported.path);
      staticImports(metafile, imported.path, seen);
    }
  }
  return seen;
}

/** esbuild settings of the client build, shared by `build` and the watch mode of `dev`. */
export function clientBuildOptions(names: readonly string[], { pagesDir, outDir, mode }: ClientBuildOptions): esbuild.BuildOptions & { metafile: true } {
  return {
    entryPoints: Object.fromEntries(names.map((name) => [name, `page-entry:${name}`])),
    plugins: [pageEntriesPlugin(pagesDir)],
    bundle: true,
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

/** Maps each page to its entry file and the chunks it statically imports, as public URLs. */
export async function writeManifest(metafile: esbuild.Metafile, outDir: string): Promise<Record<string, PageAssets>> {
  const assetsDir = join(outDir, 'assets');
  const url = (file: string) => `${ASSETS_PATH}${relative(assetsDir, resolve(ROOT, file)).split('\\').join('/')}`;
  const pages: Record<string, PageAssets> = {};
  for (const [output, meta] of Object.entries(metafile.outputs)) {
    if (meta.entryPoint === undefined || !meta.entryPoint.startsWith(`${ENTRY_NAMESPACE}:`)) continue;
    const name = meta.entryPoint.slice(ENTRY_NAMESPACE.length + 1);
    pages[name] = { script: url(output), preloads: [...staticImports(metafile, output)].map(url) };
  }
  const manifest: ClientManifest = { pages };
  await writeFile(join(outDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return pages;
}

export async function cleanClientOutput(outDir: string): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(join(outDir, 'assets'), { recursive: true });
}

/**
 * Builds content-hashed ES modules with code splitting (each page loads only its own code
 * plus shared chunks) and writes the manifest the server reads once at start.
 */
export async function buildClient(options: ClientBuildOptions): Promise<Record<string, PageAssets>> {
  const names = await pageNames(options.pagesDir);
  await cleanClientOutput(options.outDir);
  const result = await esbuild.build(clientBuildOptions(names, options));
  await precompressAssets(join(options.outDir, 'assets'));
  return writeManifest(result.metafile, options.outDir);
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes `<file>.br` (brotli 11) and `<file>.gz` (gzip 9) beside every built file the
 * compression makes smaller. The server reads them at start, so the first visitor of a new
 * instance gets the compressed bundle too; the maximum levels cost build time, never requests.
 */
export async function precompressAssets(assetsDir: string): Promise<void> {
  const entries = await readdir(assetsDir, { withFileTypes: true, recursive: true });
  const files = entries.filter((entry) => entry.isFile() && !/\.(?:br|gz)$/.test(entry.name)).map((entry) => join(entry.parentPath, entry.name));
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
