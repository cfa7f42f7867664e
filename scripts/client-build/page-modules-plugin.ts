import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type * as esbuild from 'esbuild';
import { displayPath } from './display-path.ts';
import { refuseForeignExports } from './foreign-exports.ts';
import { LocatedError } from './located-error.ts';
import { withoutServerExports } from './server-exports.ts';

const LOADERS: Readonly<Record<string, esbuild.Loader>> = { '.tsx': 'tsx', '.ts': 'ts', '.jsx': 'jsx', '.js': 'js', '.mts': 'ts', '.mjs': 'js' };

/**
 * Gives the client build each page module (the files the route table names) without `load`,
 * `action` and `head` and what only they use (server-exports.ts): the browser never gets them,
 * nor the server modules they import. A module exporting one of React Router's names this
 * framework does not read (`loader`, `meta`, ...) stops the build (foreign-exports.ts).
 */
export function pageModulesPlugin(pageFiles: Iterable<string>): esbuild.Plugin {
  const pages = new Set(pageFiles);
  return {
    name: 'page-modules',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args): Promise<esbuild.OnLoadResult | undefined> => {
        if (args.namespace !== 'file' || !pages.has(args.path)) return undefined;
        const text = await readFile(args.path, 'utf8');
        try {
          refuseForeignExports(text, args.path);
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
