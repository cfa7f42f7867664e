import { basename, resolve } from 'node:path';
import * as esbuild from 'esbuild';

/** A framework module a page loads later by `import()`, as its own build wrote it. */
export interface LazyChunk {
  /** The source modules in it, as esbuild names them (from the working folder). */
  readonly modules: readonly string[];
  /** Its file, from the working folder. */
  readonly output: string;
  /** Its bytes, when the build keeps its files in memory (`write: false`). */
  readonly contents: Uint8Array | undefined;
}

export interface LazyChunksOptions {
  /** The modules loaded by `import()` only, each built on its own: the navigation runtime, telemetry. */
  readonly modules: readonly string[];
  /** Hears each chunk built, e.g. to weigh it. */
  readonly onChunk?: ((chunk: LazyChunk) => void) | undefined;
}

/** The settings of the page build that a lazy chunk's own build must not take over. */
function ownSettings(options: esbuild.BuildOptions): esbuild.BuildOptions {
  const { entryPoints: _entries, plugins: _plugins, splitting: _splitting, metafile: _metafile, entryNames: _names, chunkNames: _chunks, ...settings } = options;
  return settings;
}

/**
 * Builds each of the framework's lazily loaded modules as a file of its own, with the page
 * build's settings, and makes the page's `import()` of it name that file. Inside the page build
 * (code splitting), every chunk an `import()` makes imports esbuild's shared helpers
 * (`__toESM`, which React's CommonJS needs) from a chunk of their own, even a chunk that uses
 * none (evanw/esbuild#1892): every page's first load then fetched that small file as well, some
 * 190 gzip bytes more than the same helpers inside the page's file. Built apart, the lazy
 * module is handed what it needs of the first load (client/router/runtime-host.ts) and shares
 * no module with it; the build fails if it ever does, since the module would then run twice,
 * with two copies of its state.
 */
export function lazyChunksPlugin({ modules, onChunk }: LazyChunksOptions): esbuild.Plugin {
  const lazy = new Set(modules.map((module) => resolve(module)));
  const names = [...lazy].map((module) =>
    basename(module)
      .replace(/\.[jt]sx?$/, '')
      .replace(/[^\w-]/g, '\\$&'),
  );
  const filter = new RegExp(`(?:${names.join('|')})\\.[jt]sx?$`);
  return {
    name: 'lazy-chunks',
    setup(build) {
      const workingDir = build.initialOptions.absWorkingDir ?? process.cwd();
      const settings = ownSettings(build.initialOptions);
      /** The chunks of this build (a watch mode's rebuild builds them again): file to its inputs. */
      let built = new Map<string, Promise<{ readonly path: string; readonly inputs: readonly string[] }>>();
      build.onStart(() => {
        built = new Map();
      });

      async function buildAlone(file: string): Promise<{ readonly path: string; readonly inputs: readonly string[] }> {
        const result = await esbuild.build({ ...settings, entryPoints: [file], entryNames: 'chunk-[hash]', metafile: true });
        const [output, meta] = Object.entries(result.metafile.outputs).find(([name, info]) => info.entryPoint !== undefined && name.endsWith('.js')) ?? [];
        if (output === undefined || meta === undefined) throw new Error(`the build of ${file} wrote no script`);
        const inputs = Object.keys(meta.inputs);
        const contents = result.outputFiles?.find((out) => out.path === resolve(workingDir, output))?.contents;
        onChunk?.({ modules: inputs, output, contents });
        return { path: `./${basename(output)}`, inputs };
      }

      build.onResolve({ filter }, async (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const file = resolve(args.resolveDir, args.path);
        if (!lazy.has(file)) return undefined;
        let chunk = built.get(file);
        if (chunk === undefined) {
          chunk = buildAlone(file);
          built.set(file, chunk);
        }
        const { path, inputs } = await chunk;
        return { path, external: true, watchFiles: inputs.map((input) => resolve(workingDir, input)) };
      });

      build.onEnd(async (result) => {
        if (result.metafile === undefined || built.size === 0) return undefined;
        const pages = new Set(Object.values(result.metafile.outputs).flatMap((output) => Object.keys(output.inputs)));
        const errors: esbuild.PartialMessage[] = [];
        for (const [file, chunk] of built) {
          const shared = (await chunk.catch(() => ({ inputs: [] }))).inputs.filter((input) => pages.has(input));
          for (const input of shared) {
            errors.push({
              text: `${input} is in a page's first load and in the lazily loaded ${file}: the chunk must be handed it (client/router/runtime-host.ts), or it runs twice with two copies of its state`,
            });
          }
        }
        return { errors };
      });
    },
  };
}
