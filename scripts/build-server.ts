import { builtinModules } from 'node:module';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { ROOT } from './build-client.ts';

/**
 * The bundle's own `require`, for the CommonJS packages bundled into an ES module: esbuild turns
 * their `require('http')` into calls of it. Taken from `process.getBuiltinModule`, so the bundle
 * starts with no `import` at all.
 */
const REQUIRE_BANNER = "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);";

const NODE_BUILTINS = new Set(builtinModules);

/**
 * Node's own modules imported by ES `import` (ours, and ES-module packages') are loaded with
 * `require` instead. An `import` of a built-in makes Node build its ES-module facade, which reads
 * every export: reading `node:http`'s `WebSocket` getter alone loads the whole of undici, some
 * 20 ms of a start. `require` returns the same object and reads nothing.
 */
const nodeBuiltinsByRequire: esbuild.Plugin = {
  name: 'node-builtins-by-require',
  setup(build) {
    build.onResolve({ filter: /^[a-z][a-z0-9_:/]*$/ }, (args) => {
      if (args.kind !== 'import-statement' && args.kind !== 'dynamic-import') return undefined;
      if (!args.path.startsWith('node:') && !NODE_BUILTINS.has(args.path)) return undefined;
      return { path: args.path, namespace: 'node-builtin' };
    });
    build.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/**
 * esbuild settings of the server bundle, shared by `build` and the watch mode of `dev`. The
 * packages are bundled in (prom-client too: its `import()` stays lazy, evaluated only when
 * metrics are on), so Node reads, compiles and links one file instead of resolving and loading
 * hundreds of CommonJS modules, and the bundle needs no node_modules at run time. Whitespace and
 * syntax are minified because compiling is a start's largest single cost and grows with the
 * bytes; names are kept, so stacks still name their functions, and the linked source map
 * points back at the sources.
 */
export function serverBuildOptions(outDir: string): esbuild.BuildOptions {
  return {
    entryPoints: { main: join(ROOT, 'server', 'main.ts') },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: ['node24'],
    outdir: outDir,
    jsx: 'automatic',
    banner: { js: REQUIRE_BANNER },
    plugins: [nodeBuiltinsByRequire],
    sourcemap: 'linked',
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: false,
    logLevel: 'warning',
  };
}

/** Bundles the server, its packages included, so `npm start` and the image run one file. */
export async function buildServer(outDir: string): Promise<void> {
  await esbuild.build(serverBuildOptions(outDir));
}

/** Bundles another Node entry (fixture servers, soak, bench baselines) the way the server is. */
export async function bundleNodeEntry(entry: string, outfile: string): Promise<void> {
  const { entryPoints: _entryPoints, outdir: _outdir, ...shared } = serverBuildOptions('');
  await esbuild.build({ ...shared, entryPoints: [entry], outfile, sourcemap: false });
}
