import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type * as esbuild from 'esbuild';
import { displayPath } from './display-path.ts';
import { withDirectImports, type DoorMap } from './door-imports.ts';
import { refuseForeignExports, type RouteModuleRole } from './foreign-exports.ts';
import { LocatedError } from './located-error.ts';
import { withoutServerExports } from './server-exports.ts';

/** A module's text as this plugin leaves it, given a last step; undefined keeps it so. */
export type ModuleFinisher = (
  module: { readonly path: string; readonly contents: string; readonly loader: esbuild.Loader },
  build: esbuild.PluginBuild,
) => Promise<esbuild.OnLoadResult | undefined>;

const LOADERS: Readonly<Record<string, esbuild.Loader>> = { '.tsx': 'tsx', '.ts': 'ts', '.jsx': 'jsx', '.js': 'js', '.mts': 'ts', '.mjs': 'js' };

/**
 * Gives the client build each page module (the files the route table names) without `load`,
 * `action` and `head` and what only they use (server-exports.ts): the browser never gets them,
 * nor the server modules they import. A module exporting one of React Router's names this
 * framework does not read (`loader`, `meta`, ...), or one its role does not (a layout's `action`),
 * stops the build (foreign-exports.ts). Every module outside node_modules, page or not, imports
 * the package's public names from the modules that define them (door-imports.ts).
 */
export function pageModulesPlugin({
  pages: pageFiles,
  layouts: layoutFiles,
  door,
  finish,
}: {
  readonly pages: Iterable<string>;
  readonly layouts: Iterable<string>;
  readonly door: DoorMap;
  /** Development only: what the dev build does last to a module's text (scripts/dev/refresh-transform.ts); undefined leaves it. */
  readonly finish?: ModuleFinisher | undefined;
}): esbuild.Plugin {
  const roles = new Map<string, RouteModuleRole>();
  for (const file of pageFiles) roles.set(file, 'page');
  for (const file of layoutFiles) roles.set(file, roles.get(file) === 'page' ? 'page and layout' : 'layout');
  return {
    name: 'page-modules',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args): Promise<esbuild.OnLoadResult | undefined> => {
        if (args.namespace !== 'file' || args.path.includes('/node_modules/')) return undefined;
        const role = roles.get(args.path);
        const text = await readFile(args.path, 'utf8');
        const loader = LOADERS[extname(args.path)] ?? 'ts';
        const done = async (contents: string | undefined): Promise<esbuild.OnLoadResult | undefined> =>
          (await finish?.({ path: args.path, contents: contents ?? text, loader }, build)) ?? (contents === undefined ? undefined : { contents, loader });
        if (role === undefined) return await done(withDirectImports(text, door));
        try {
          refuseForeignExports(text, args.path, role);
          const stripped = withoutServerExports(text, args.path);
          return await done(withDirectImports(stripped ?? text, door) ?? stripped);
        } catch (error) {
          if (!(error instanceof LocatedError)) throw error;
          const location = { file: displayPath(args.path, build.initialOptions.absWorkingDir), line: error.line, column: error.column, lineText: error.lineText };
          return { errors: [{ text: error.message, location }] };
        }
      });
    },
  };
}
