import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type * as esbuild from 'esbuild';
import { displayPath } from './display-path.ts';
import { serverModuleChains } from './server-module-chains.ts';

/** `x.server.ts`, `x.server.tsx`, `x.server` (any script extension, or none): modules for load and action only. */
const SERVER_MODULE = /\.server(?:\.[cm]?[jt]sx?)?$/;

/** Whether a metafile input is a server module: by the file it resolved to, without a `?query` or `#hash` suffix. */
function isServerModule(input: string): boolean {
  return SERVER_MODULE.test(input.replace(/[?#].*$/, ''));
}

/** The line of `importer` that imports `specifier` (1 when the text does not say), for the error's location. */
function importLine(importer: string, specifier: string): { line: number; lineText: string } {
  let lines: string[] = [];
  try {
    lines = readFileSync(importer, 'utf8').split('\n');
  } catch {
    // A virtual module has no file: the message names the chain all the same.
  }
  const index = lines.findIndex((text) => text.includes(`'${specifier}'`) || text.includes(`"${specifier}"`));
  return index === -1 ? { line: 1, lineText: '' } : { line: index + 1, lineText: lines[index] ?? '' };
}

/**
 * Keeps `*.server.*` modules out of the browser. The client build loads each as an empty module
 * (so neither its code nor what it imports, `node:fs` say, is ever bundled), then fails if
 * browser code still reaches one, naming the chain of imports that does. The check goes by the
 * file an import resolves to, not by its text: a template `import()`, a `#alias` of the
 * package's imports, a `?query` suffix or a link to the file all reach the same file.
 */
export function serverModulesPlugin(): esbuild.Plugin {
  return {
    name: 'server-modules',
    setup(build) {
      const workingDir = build.initialOptions.absWorkingDir ?? process.cwd();
      const { entryPoints } = build.initialOptions;
      const entries =
        entryPoints === undefined ? [] : Array.isArray(entryPoints) ? entryPoints.map((entry) => (typeof entry === 'string' ? entry : entry.in)) : Object.values(entryPoints);
      build.onLoad({ filter: SERVER_MODULE }, () => ({ contents: '', loader: 'js' }));
      build.onEnd((result): esbuild.OnEndResult | undefined => {
        if (result.metafile === undefined) return undefined;
        const { inputs } = result.metafile;
        const chains = serverModuleChains(result.metafile, entries, isServerModule);
        const errors = chains.map((chain): esbuild.PartialMessage => {
          // A virtual entry (a page's, `page-entry:home`) is the build's own: the chain starts at the module it imports.
          const modules = chain.length > 2 && /^[\w-]+:/.test(chain[0] ?? '') ? chain.slice(1) : chain;
          const [first = '', second = ''] = modules;
          const shown = modules.map((input) => displayPath(resolve(workingDir, input.replace(/[?#].*$/, '')), workingDir));
          const text = `${shown[0]} imports ${shown.slice(1).join(', which imports ')}: a *.server.ts module cannot reach the browser (use it only from load or action; for its types alone, \`import type\`)`;
          const specifier = inputs[first]?.imports.find((imported) => imported.path === second)?.original ?? '';
          return { text, location: { file: shown[0], ...importLine(resolve(workingDir, first), specifier) } };
        });
        return { errors };
      });
    },
  };
}
