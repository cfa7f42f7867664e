import { basename, dirname, extname, join, relative, sep } from 'node:path';
import { parseSync, transformSync } from '@swc/core';
import * as esbuild from 'esbuild';
import type { ModuleFinisher } from '../client-build/page-modules-plugin.ts';
import { OWN_RESOLUTION } from './hot-module.ts';

/**
 * The name of the page's hot registry (client/dev/hot-registry.ts), which the dev bundle's
 * first module sets before any app module runs.
 */
const HOT = 'globalThis.__reactStreamShellHot';

/** Imports whose modules hold no code to share: a stylesheet is the page's bundle's business. */
const NOT_SHARED = /\.(?:css)$/i;

export interface RefreshTransformInput {
  /** The module's file, absolute. */
  readonly path: string;
  /** Its text as the client build has it by now (server exports cut, the doors direct). */
  readonly contents: string;
  readonly loader: esbuild.Loader;
  /** The project: a component's refresh id is the module's path from here, stable across builds. */
  readonly project: string;
  /** esbuild's own resolution, as the build resolves the same import. */
  readonly resolve: (specifier: string) => Promise<esbuild.ResolveResult>;
}

/**
 * One app module as the development build gives it: SWC's React Refresh transform (the one
 * @vitejs/plugin-react-swc and Next.js use) registers each component and the signature of its
 * hooks, and turns TypeScript and JSX into JavaScript in the same pass; the module then keeps
 * its namespace, and those of the modules it imports, in the page's hot registry. Built on its
 * own after a save (scripts/dev/hot-module.ts), the same text finds those modules there.
 * A syntax error is reported as esbuild reports one (file, line, column, the line), since
 * esbuild reads the same text in production.
 */
export async function refreshTransform({ path, contents, loader, project, resolve }: RefreshTransformInput): Promise<esbuild.OnLoadResult> {
  const typescript = loader === 'ts' || loader === 'tsx';
  const jsx = loader === 'tsx' || loader === 'jsx';
  const display = relative(project, path).split(sep).join('/');
  let code: string;
  try {
    code = transformSync(contents, {
      filename: path,
      // A source map's sources are read beside the module.
      sourceFileName: basename(path),
      sourceMaps: 'inline',
      isModule: true,
      jsc: {
        parser: typescript ? { syntax: 'typescript', tsx: jsx } : { syntax: 'ecmascript', jsx },
        target: 'es2022',
        // SWC registers components only in its development mode (jsxDEV with source locations).
        transform: { react: { runtime: 'automatic', development: true, refresh: true } },
      },
    }).code;
  } catch (error) {
    return { errors: await syntaxErrors(contents, loader, display, error) };
  }
  const imports = importedSpecifiers(code).filter((specifier) => !NOT_SHARED.test(specifier));
  const kept: string[] = [];
  for (const [index, specifier] of imports.entries()) {
    const resolved = await resolve(specifier);
    if (resolved.errors.length > 0 || resolved.external || resolved.path === '' || NOT_SHARED.test(resolved.path)) continue;
    kept.push(`import * as __rss_d${index} from ${JSON.stringify(specifier)};`, `${HOT}.keep(${JSON.stringify(resolved.path)}, __rss_d${index});`);
  }
  // On the first line, so the source map of every other line still holds.
  const header = `const $RefreshReg$ = ${HOT}.registerFor(${JSON.stringify(display)}), $RefreshSig$ = ${HOT}.signature;`;
  const self = `./${basename(path)}`;
  const footer = [...kept, `import * as __rss_self from ${JSON.stringify(self)};`, `${HOT}.ran(${JSON.stringify(path)}, __rss_self);`];
  return { contents: `${header}${code}\n${footer.join('\n')}\n`, loader: 'js' };
}

/** The modules the compiled text imports or re-exports from (SWC has left out type-only imports). */
function importedSpecifiers(code: string): string[] {
  const specifiers: string[] = [];
  for (const item of parseSync(code, { syntax: 'ecmascript' }).body) {
    if (item.type === 'ImportDeclaration' || item.type === 'ExportAllDeclaration') specifiers.push(item.source.value);
    else if (item.type === 'ExportNamedDeclaration' && item.source !== undefined) specifiers.push(item.source.value);
  }
  return [...new Set(specifiers)];
}

/** esbuild's messages for the text SWC refused; SWC's own when esbuild reads it (a rule only SWC has). */
async function syntaxErrors(contents: string, loader: esbuild.Loader, display: string, error: unknown): Promise<esbuild.PartialMessage[]> {
  try {
    await esbuild.transform(contents, { loader, sourcefile: display, jsx: 'preserve', logLevel: 'silent' });
  } catch (failure) {
    if (typeof failure === 'object' && failure !== null && 'errors' in failure && Array.isArray(failure.errors)) return failure.errors;
  }
  return [{ text: error instanceof Error ? error.message : String(error), location: { file: display } }];
}

/** Whether the dev build gives a module the refresh transform: the app's own scripts, never a package's. */
export function isRefreshed(path: string, appDir: string): boolean {
  return path.startsWith(`${appDir}${sep}`) && !path.includes(`${sep}node_modules${sep}`) && /^\.[cm]?[jt]sx?$/.test(extname(path));
}

/** The client build's last step in development: the refresh transform on the app's own modules. */
export function refreshFinisher(project: string): ModuleFinisher {
  const appDir = join(project, 'app');
  return async ({ path, contents, loader }, build) => {
    if (!isRefreshed(path, appDir)) return undefined;
    const resolveDir = dirname(path);
    return refreshTransform({
      path,
      contents,
      loader,
      project,
      resolve: (specifier) => build.resolve(specifier, { kind: 'import-statement', importer: path, resolveDir, pluginData: OWN_RESOLUTION }),
    });
  };
}
