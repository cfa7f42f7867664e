import { readFile, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { frameworkModule, PROJECT, ROOT } from './build-client.ts';
import { fillCompileCache } from './fill-compile-cache.ts';
import { assetUrlsPlugin } from './client-build/asset-urls-plugin.ts';

/** The server bundle (server/main.ts and what it imports), beside the entry, main.js, that imports it. */
export const SERVER_BUNDLE = 'server.js';

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
 * JSON files (mime-db's 200 KB table of media types above all, which Express loads at start)
 * become `JSON.parse` of a string rather than an object literal: V8 parses JSON faster than the
 * same data as JavaScript, and its bytecode for a literal that large is larger than the string
 * (https://v8.dev/blog/cost-of-javascript-2019#json).
 */
const jsonByParse: esbuild.Plugin = {
  name: 'json-by-parse',
  setup(build) {
    build.onLoad({ filter: /\.json$/ }, async (args) => {
      const data: unknown = JSON.parse(await readFile(args.path, 'utf8'));
      return { contents: `module.exports = JSON.parse(${JSON.stringify(JSON.stringify(data))});`, loader: 'js' };
    });
  },
};

/**
 * Which of React's two builds a bundle carries. React's packages choose with
 * `process.env.NODE_ENV` when they load, so a bundle keeps both unless the build fixes that value.
 * - `production`: the build fixes `process.env.NODE_ENV` to "production" inside the bundle, and
 *   esbuild leaves React's development build out (about 600 KB, some 7 ms of every start spent
 *   parsing code that production never runs). Every package sees "production" whatever the
 *   environment says, Express's `env` setting included; the server's own NODE_ENV
 *   (server/config.ts) is read from the environment as before.
 * - `chosen-at-run-time`: both builds, NODE_ENV picks one when the process starts: `npm run dev`
 *   and the test fixture servers, whose browser tests hydrate with development React.
 */
export type ReactBuild = 'production' | 'chosen-at-run-time';

/**
 * What every Node bundle shares. The packages are bundled in (prom-client too: its `import()`
 * stays lazy, evaluated only when metrics are on), so Node reads one file instead of resolving
 * and loading hundreds of CommonJS modules, and needs no node_modules at run time. Whitespace and
 * syntax are minified because compiling is a start's largest single cost and grows with the
 * bytes; names are kept, so stacks still name their functions.
 */
function nodeBundleOptions(react: ReactBuild, assetsInto?: string): esbuild.BuildOptions {
  return {
    bundle: true,
    platform: 'node',
    target: ['node24'],
    jsx: 'automatic',
    // An image or font a module imports is its /assets/ URL, as in the client build; with
    // `assetsInto`, the file is copied there too (one only the server names: a head's og:image).
    plugins: [nodeBuiltinsByRequire, jsonByParse, assetUrlsPlugin(assetsInto === undefined ? {} : { copyInto: assetsInto })],
    // A page's CSS is the client build's (docs/styles.md); on the server its import is nothing.
    loader: { '.css': 'empty' },
    ...(react === 'production' ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: false,
    logLevel: 'warning',
  };
}

/** An ES module bundle, taking Node's own modules with `require` (REQUIRE_BANNER). */
function esModuleOptions(react: ReactBuild, assetsInto?: string): esbuild.BuildOptions {
  return { ...nodeBundleOptions(react, assetsInto), format: 'esm', banner: { js: REQUIRE_BANNER } };
}

const ENTRY = frameworkModule('server', 'entry.ts');
const FILL_COMPILE_CACHE = frameworkModule('server', 'fill-compile-cache.ts');
const MAIN = frameworkModule('server', 'main.ts');

/** The app declaration the server serves unless a build names another: app/app.ts of the project being built. */
export const APP_MODULE = join(PROJECT, 'app', 'app.ts');

/** The name of the server bundle's entry, which boundApp makes. */
const BOUND_ENTRY = 'app-server-entry';

/**
 * The server bundle's entry, made for the app being built: main.ts's `main` with `appModule`'s
 * declaration bound (server-bundle.d.ts). No framework file imports an app; the framework's own
 * tests build the product entry around their fixture app by naming it here.
 */
function boundApp(appModule: string): esbuild.Plugin {
  return {
    name: 'bound-app',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${BOUND_ENTRY}$`) }, () => ({ path: BOUND_ENTRY, namespace: BOUND_ENTRY }));
      build.onLoad({ filter: /.*/, namespace: BOUND_ENTRY }, () => ({
        contents: [
          `import app from ${JSON.stringify(appModule)};`,
          `import { main as start } from ${JSON.stringify(MAIN)};`,
          'export function main(options) { return start({ ...options, app }); }',
        ].join('\n'),
        loader: 'js',
        resolveDir: ROOT,
      }));
    },
  };
}

/**
 * The entry's `import('./server-bundle.js')` is the server bundle beside it, loaded by Node's own loader
 * with the compile cache on, rather than main.ts bundled into the entry. (fill-compile-cache.ts
 * names the bundle itself: it compiles it without running it.)
 */
const serverBundleBeside: esbuild.Plugin = {
  name: 'server-bundle-beside',
  setup(build) {
    build.onResolve({ filter: /^\.\/server-bundle\.js$/ }, (args) => (args.importer === ENTRY ? { path: `./${SERVER_BUNDLE}`, external: true } : undefined));
  },
};

/**
 * The two builds of the server, shared by `build`, the watch mode of `dev` and the bench; both ES
 * modules with linked source maps, for `--enable-source-maps`.
 * - `entry`: main.js, the process entry (server/entry.ts), and fill-compile-cache.js, which fills
 *   the compile cache; each a few kilobytes, which turn Node's compile cache on and then import
 *   the server bundle.
 * - `server`: server.js, the server itself (server/main.ts and all it imports), compiled with
 *   the code in Node's compile cache (docs/deployment.md#compile-cache).
 */
export function serverBuildOptions(
  outDir: string,
  react: ReactBuild,
  appModule: string = APP_MODULE,
): { readonly entry: esbuild.BuildOptions; readonly server: esbuild.BuildOptions } {
  // The client build beside it (main.ts serves ../client/): the images only the server names go
  // there too. The client build empties that folder as it starts, so it runs first (`npm run build`).
  const esModule = esModuleOptions(react, join(outDir, '..', 'client', 'assets'));
  return {
    entry: {
      ...esModule,
      plugins: [...(esModule.plugins ?? []), serverBundleBeside],
      entryPoints: { main: ENTRY, 'fill-compile-cache': FILL_COMPILE_CACHE },
      outdir: outDir,
      sourcemap: 'linked',
    },
    server: {
      ...esModule,
      plugins: [...(esModule.plugins ?? []), boundApp(appModule)],
      entryPoints: [BOUND_ENTRY],
      outfile: join(outDir, SERVER_BUNDLE),
      sourcemap: 'linked',
    },
  };
}

/**
 * Bundles the server (around `appModule`, the app's declaration unless a test names its fixture
 * app) with production React, so `npm start` and the image run the built files and
 * no node_modules, then fills its compile cache. The folder is emptied first, as the client's is,
 * so nothing an older build wrote (a bundle under an older name, its map) stays beside this one.
 */
export async function buildServer(outDir: string, appModule: string = APP_MODULE): Promise<void> {
  const { entry, server } = serverBuildOptions(outDir, 'production', appModule);
  await rm(outDir, { recursive: true, force: true });
  await Promise.all([esbuild.build(entry), esbuild.build(server)]);
  await fillCompileCache(outDir);
}

/**
 * Bundles another Node entry (fixture servers, soak, bench baselines) the way the server is
 * bundled, as one ES module. The bench's baselines take `production`, as the product does, so a
 * ratio compares servers, not React builds.
 */
export async function bundleNodeEntry(entry: string, outfile: string, react: ReactBuild = 'chosen-at-run-time'): Promise<void> {
  await esbuild.build({ ...esModuleOptions(react), entryPoints: [entry], outfile, sourcemap: false });
}
