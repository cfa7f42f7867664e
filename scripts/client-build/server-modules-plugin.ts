import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type * as esbuild from 'esbuild';
import { displayPath } from './display-path.ts';
import { serverModuleChains } from './server-module-chains.ts';

/** `x.server.ts`, `x.server.tsx`, `x.server` (any script extension, or none): modules for load and action only. */
const SERVER_MODULE = /\.server(?:\.[cm]?[jt]sx?)?$/;
const NAMESPACE = 'server-module';
/** Marks the build's own call of `build.resolve`, so the plugin does not answer itself. */
const RESOLVING = Symbol('resolving a server module');

/** A metafile input as a person reads it: `namespace:/abs/file` or a path relative to the working folder. */
function shownInput(input: string, workingDir: string): string {
  const file = input.startsWith(`${NAMESPACE}:`) ? input.slice(NAMESPACE.length + 1) : resolve(workingDir, input);
  return displayPath(file, workingDir);
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
 * Keeps `*.server.*` modules out of the browser. The client build resolves each to an empty
 * stand-in (so neither its code nor what it imports, `node:fs` say, is ever bundled), then fails
 * if browser code still reaches one, naming the chain of imports that does.
 */
export function serverModulesPlugin(): esbuild.Plugin {
  return {
    name: 'server-modules',
    setup(build) {
      const workingDir = build.initialOptions.absWorkingDir ?? process.cwd();
      build.onResolve({ filter: SERVER_MODULE }, async (args) => {
        if (args.pluginData === RESOLVING) return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: RESOLVING });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        return { path: resolved.path, namespace: NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, () => ({ contents: '', loader: 'js' }));
      build.onEnd((result): esbuild.OnEndResult | undefined => {
        if (result.metafile === undefined) return undefined;
        const { inputs } = result.metafile;
        const chains = serverModuleChains(result.metafile, (input) => input.startsWith(`${NAMESPACE}:`));
        const errors = chains.map((chain): esbuild.PartialMessage => {
          // A virtual entry (a page's, `page-entry:home`) is the build's own: the chain starts at the module it imports.
          const modules = chain.length > 2 && /^[\w-]+:/.test(chain[0] ?? '') ? chain.slice(1) : chain;
          const [first = '', second = ''] = modules;
          const shown = modules.map((input) => shownInput(input, workingDir));
          const text = `${shown[0]} imports ${shown.slice(1).join(', which imports ')}: a *.server.ts module cannot reach the browser (use it only from load or action)`;
          const specifier = inputs[first]?.imports.find((imported) => imported.path === second)?.original ?? '';
          return { text, location: { file: shown[0], ...importLine(resolve(workingDir, first), specifier) } };
        });
        return { errors };
      });
    },
  };
}
