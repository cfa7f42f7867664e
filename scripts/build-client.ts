import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { basename, extname, join, relative, resolve } from 'node:path';
import * as esbuild from 'esbuild';

export const ROOT = resolve(import.meta.dirname, '..');

export interface ClientBuildOptions {
  /** Folder of page modules; each `<name>.tsx` becomes the hydrating entry of page `<name>`. */
  readonly pagesDir: string;
  /** Output: `manifest.json` here, the files served under `/assets/` in `assets/`. */
  readonly outDir: string;
  readonly mode: 'production' | 'development';
}

export interface PageManifestEntry {
  readonly script: string;
  readonly preloads: readonly string[];
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

async function pageNames(pagesDir: string): Promise<string[]> {
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

/**
 * Builds content-hashed ES modules with code splitting (each page loads only its own code
 * plus shared chunks) and writes the manifest the server reads once at start.
 */
export async function buildClient({ pagesDir, outDir, mode }: ClientBuildOptions): Promise<Record<string, PageManifestEntry>> {
  const names = await pageNames(pagesDir);
  const assetsDir = join(outDir, 'assets');
  await rm(outDir, { recursive: true, force: true });
  await mkdir(assetsDir, { recursive: true });
  const result = await esbuild.build({
    entryPoints: Object.fromEntries(names.map((name) => [name, `page-entry:${name}`])),
    plugins: [pageEntriesPlugin(pagesDir)],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    outdir: assetsDir,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    minify: mode === 'production',
    sourcemap: mode === 'development' ? 'linked' : false,
    jsx: 'automatic',
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': JSON.stringify(mode) },
    metafile: true,
    logLevel: 'warning',
  });

  const pages: Record<string, PageManifestEntry> = {};
  for (const [output, meta] of Object.entries(result.metafile.outputs)) {
    if (meta.entryPoint === undefined || !meta.entryPoint.startsWith(`${ENTRY_NAMESPACE}:`)) continue;
    const name = meta.entryPoint.slice(ENTRY_NAMESPACE.length + 1);
    const url = (file: string) => `/assets/${relative(assetsDir, resolve(ROOT, file)).split('\\').join('/')}`;
    pages[name] = { script: url(output), preloads: [...staticImports(result.metafile, output)].map(url) };
  }
  await writeFile(join(outDir, 'manifest.json'), `${JSON.stringify({ pages }, null, 2)}\n`);
  return pages;
}
