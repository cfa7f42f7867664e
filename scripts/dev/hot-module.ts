import * as esbuild from 'esbuild';

/** Set on the resolutions this plugin asks for itself, so it does not catch them again. */
export const OWN_RESOLUTION = { hotResolving: true } as const;

const SHARED = 'hot-shared';
const EMPTY = 'hot-empty';

/**
 * One changed module built on its own, as the page imports it after a save: everything it
 * imports comes from the page's hot registry (client/dev/hot-registry.ts), the same module
 * instances the page's bundle runs, so a new component meets the React, the contexts and the
 * modules the page has. A stylesheet it imports is the page's bundle's (the CSS is swapped apart).
 * The module itself goes through the client build's own plugins (server exports cut, the refresh
 * transform), so it is the code the next full build holds.
 */
function sharedImportsPlugin(file: string): esbuild.Plugin {
  return {
    name: 'hot-shared-imports',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === 'entry-point' || (typeof args.pluginData === 'object' && args.pluginData !== null && 'hotResolving' in args.pluginData)) return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: OWN_RESOLUTION });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        if (resolved.path === file) return { path: file };
        if (/\.css$/i.test(resolved.path)) return { path: resolved.path, namespace: EMPTY };
        return { path: resolved.path, namespace: SHARED };
      });
      build.onLoad({ filter: /.*/, namespace: EMPTY }, () => ({ contents: '', loader: 'js' }));
      // A CommonJS module whose exports are the page's namespace, marked as ES, so default and named imports read it as written.
      build.onLoad({ filter: /.*/, namespace: SHARED }, (args) => ({
        contents: `module.exports = Object.assign({ __esModule: true }, globalThis.__reactStreamShellHot.need(${JSON.stringify(args.path)}));`,
        loader: 'js',
      }));
    },
  };
}

export interface HotModule {
  /** The module's code, its source map inline. */
  readonly code: string;
  /**
   * The same without the source map and the JSX source locations: what tells whether the
   * browser's code changed. An edit to `load` above a component moves its lines, not its code.
   */
  readonly browserCode: string;
}

/**
 * Builds `file` as a hot module with the client build's settings `base` (its entry points,
 * splitting and output left aside). Rejects with esbuild's failure when the module does not build.
 */
export async function buildHotModule(file: string, base: esbuild.BuildOptions): Promise<HotModule> {
  const { entryPoints: _entries, splitting: _splitting, metafile: _metafile, outdir: _outdir, entryNames: _names, chunkNames: _chunks, ...settings } = base;
  const result = await esbuild.build({
    ...settings,
    entryPoints: [file],
    plugins: [sharedImportsPlugin(file), ...(base.plugins ?? [])],
    bundle: true,
    write: false,
    outfile: 'hot.js',
    sourcemap: 'inline',
    logLevel: 'silent',
  });
  const code = result.outputFiles.find((output) => output.path.endsWith('.js'))?.text ?? '';
  const browserCode = code.replace(/\/\/# sourceMappingURL=.*\s*$/, '').replace(/lineNumber: \d+,\s*columnNumber: \d+/g, '');
  return { code, browserCode };
}
