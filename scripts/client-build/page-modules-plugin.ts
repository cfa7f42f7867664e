import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type * as esbuild from 'esbuild';
import { displayPath } from './display-path.ts';
import { refuseForeignExports, type RouteModuleRole } from './foreign-exports.ts';
import { LocatedError } from './located-error.ts';
import { withoutServerExports } from './server-exports.ts';

const LOADERS: Readonly<Record<string, esbuild.Loader>> = { '.tsx': 'tsx', '.ts': 'ts', '.jsx': 'jsx', '.js': 'js', '.mts': 'ts', '.mjs': 'js' };

/**
 * Gives the client build each page module (the files the route table names) without `load`,
 * `action` and `head` and what only they use (server-exports.ts): the browser never gets them,
 * nor the server modules they import. A module exporting one of React Router's names this
 * framework does not read (`loader`, `meta`, ...), or one its role does not (a layout's `action`),
 * stops the build (foreign-exports.ts).
 */
export function pageModulesPlugin({ pages: pageFiles, layouts: layoutFiles }: { readonly pages: Iterable<string>; readonly layouts: Iterable<string> }): esbuild.Plugin {
  const roles = new Map<string, RouteModuleRole>();
  for (const file of pageFiles) roles.set(file, 'page');
  for (const file of layoutFiles) roles.set(file, roles.get(file) === 'page' ? 'page and layout' : 'layout');
  return {
    name: 'page-modules',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args): Promise<esbuild.OnLoadResult | undefined> => {
        const role = args.namespace === 'file' ? roles.get(args.path) : undefined;
        if (role === undefined) return undefined;
        const text = await readFile(args.path, 'utf8');
        try {
          refuseForeignExports(text, args.path, role);
          const contents = withoutServerExports(text, args.path);
          return contents === undefined ? undefined : { contents, loader: LOADERS[extname(args.path)] ?? 'ts' };
        } catch (error) {
          if (!(error instanceof LocatedError)) throw error;
          const location = { file: displayPath(args.path, build.initialOptions.absWorkingDir), line: error.line, column: error.column, lineText: error.lineText };
          return { errors: [{ text: error.message, location }] };
        }
      });
    },
  };
}
