import { readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import * as esbuild from 'esbuild';
import { ROOT } from './build-client.ts';
import { SERVER_BUNDLE } from '../server/load-server.ts';
import { fillCodeCache } from './fill-code-cache.ts';

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
 * same data as JavaScript, and its bytecode for a literal that large is larger than the string.
 * Measured on the server with its code cache: about 2 ms less to read the cache and 2 to 3 ms
 * less to evaluate the bundle.
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
 * Gives every importer of `module` in the server bundle the file `standIn` instead, whose own
 * import gets the real module (the stand-ins' comments say why each is there). The build fails if
 * an importer would have got another copy of `module` than the stand-in loads, and if it swaps
 * nothing: what the stand-in saves a start would then be paid again without anyone noticing.
 */
function standIn(module: string, standInPath: string, why: string): esbuild.Plugin {
  const name = `stand-in for ${module}`;
  return {
    name,
    setup(build) {
      let swapped = 0;
      build.onStart(() => {
        swapped = 0;
      });
      /** Where `module` resolves from `resolveDir`, this plugin left out. */
      async function realPath(resolveDir: string): Promise<string> {
        const { path, errors } = await build.resolve(module, { kind: 'require-call', resolveDir, importer: standInPath });
        return errors.length > 0 ? '' : path;
      }
      build.onResolve({ filter: new RegExp(`^${module.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }, async (args) => {
        if (args.importer === standInPath) return undefined;
        const [theirs, ours] = await Promise.all([realPath(args.resolveDir), realPath(dirname(standInPath))]);
        if (theirs !== ours) {
          return { errors: [{ text: `${name}: ${args.importer} imports ${theirs}, but ${standInPath} would load ${ours}` }] };
        }
        swapped += 1;
        return { path: standInPath };
      });
      build.onEnd((result) => {
        if (result.errors.length > 0 || swapped > 0) return undefined;
        return { errors: [{ text: `${name}: nothing imports "${module}" any more, so ${standInPath} is not in the bundle; ${why}` }] };
      });
    },
  };
}

const STAND_INS = join(import.meta.dirname, 'stand-ins');

/**
 * Modules Express loads with itself that the product needs late or never, each given a
 * stand-in (scripts/stand-ins/) that loads the real one when it is first used: what they build
 * as they load was about a fifth of a cold start (docs/benchmark.md).
 */
const standIns: readonly esbuild.Plugin[] = [
  standIn('mime-types', join(STAND_INS, 'mime-types.cts'), 'see whether Express now loads another table of media types at start'),
  standIn('debug', join(STAND_INS, 'debug.cts'), 'see whether Express now loads another debug logger at start'),
  standIn('body-parser', join(STAND_INS, 'body-parser.cts'), 'see whether Express now loads its body parsers another way'),
  standIn('qs', join(STAND_INS, 'qs.cts'), 'see whether Express now parses query strings another way'),
];

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
function nodeBundleOptions(react: ReactBuild): esbuild.BuildOptions {
  return {
    bundle: true,
    platform: 'node',
    target: ['node24'],
    jsx: 'automatic',
    plugins: [nodeBuiltinsByRequire, jsonByParse],
    ...(react === 'production' ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: false,
    logLevel: 'warning',
  };
}

/** An ES module bundle, taking Node's own modules with `require` (REQUIRE_BANNER). */
function esModuleOptions(react: ReactBuild): esbuild.BuildOptions {
  return { ...nodeBundleOptions(react), format: 'esm', banner: { js: REQUIRE_BANNER } };
}

/**
 * The two builds of the server, shared by `build`, the watch mode of `dev` and the bench.
 * - `entry`: main.js, the process entry (server/entry.ts), and fill-code-cache.js, which the build
 *   runs once to write the code cache; both ES modules of a few kilobytes.
 * - `server`: server.cjs, the server itself (server/main.ts and all it imports), which the entry
 *   compiles with `vm.Script` and V8's code cache (server/load-server.ts,
 *   docs/deployment.md#code-cache). `vm.Script` runs scripts, not ES modules, so this one is
 *   CommonJS; "use strict" keeps the strict mode its ES sources had, as the whole bundle did
 *   when it was one ES module. What Express loads but the product needs late or never comes
 *   from stand-ins (standIns).
 * Both have linked source maps, for `--enable-source-maps` (then the entry `require`s the bundle).
 */
export function serverBuildOptions(outDir: string, react: ReactBuild): { readonly entry: esbuild.BuildOptions; readonly server: esbuild.BuildOptions } {
  const node = nodeBundleOptions(react);
  return {
    entry: {
      ...esModuleOptions(react),
      entryPoints: { main: join(ROOT, 'server', 'entry.ts'), 'fill-code-cache': join(ROOT, 'server', 'fill-code-cache.ts') },
      outdir: outDir,
      sourcemap: 'linked',
    },
    server: {
      ...node,
      plugins: [...(node.plugins ?? []), ...standIns],
      format: 'cjs',
      banner: { js: '"use strict";' },
      entryPoints: [join(ROOT, 'server', 'main.ts')],
      outfile: join(outDir, SERVER_BUNDLE),
      sourcemap: 'linked',
    },
  };
}

/**
 * Bundles the server with production React, so `npm start` and the image run the built files and
 * no node_modules, then runs it once to write its code cache.
 */
export async function buildServer(outDir: string): Promise<void> {
  const { entry, server } = serverBuildOptions(outDir, 'production');
  await Promise.all([esbuild.build(entry), esbuild.build(server)]);
  await fillCodeCache(outDir);
}

/**
 * Bundles another Node entry (fixture servers, soak, bench baselines) the way the server is
 * bundled, as one ES module. The bench's baselines take `production`, as the product does, so a
 * ratio compares servers, not React builds.
 */
export async function bundleNodeEntry(entry: string, outfile: string, react: ReactBuild = 'chosen-at-run-time'): Promise<void> {
  await esbuild.build({ ...esModuleOptions(react), entryPoints: [entry], outfile, sourcemap: false });
}
