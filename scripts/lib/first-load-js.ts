import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { clientBuildOptions, findPageEntries, ROOT, staticImports, type LazyChunk } from '../build-client.ts';
import { assetFile, firstLoadUrls } from './manifest-urls.ts';

/** What a browser downloads before a page can run: bytes as served, and gzipped. */
export interface JavaScriptWeight {
  readonly files: readonly string[];
  readonly bytes: number;
  readonly gzipBytes: number;
}

/** Extra gzip bytes `/` may ship beyond the smallest hydrating bundle, navigation aside: the bench's target and the budget test's limit. */
export const FIRST_LOAD_ALLOWANCE_BYTES = 3 * 1024;
/** What in-place navigation, links, forms, layouts, route error boundaries and fetchers may add on top of that, together. */
export const NAVIGATION_ALLOWANCE_BYTES = 7 * 1024;

/**
 * A page that uses every feature (layouts, a fetcher per item, deferred data, forms) and its own
 * code may ship both allowances over the smallest hydrating bundle: the budget npm test holds on
 * the bench's app-shaped list page. The goal is lower: 74,000 gzip bytes in all, two thirds of
 * what React Router ships for such a page (docs/app-benchmark.md says where it stands).
 */
export const FULL_PAGE_ALLOWANCE_BYTES = FIRST_LOAD_ALLOWANCE_BYTES + NAVIGATION_ALLOWANCE_BYTES;

/**
 * Stand-ins for the navigation runtime, `<Link>`, `<Form>`, the layouts' route tree (a page
 * alone, with its values for the hooks), the routes' error boundaries and `useFetcher()` (a
 * plain form, never busy): what a page would ship without them.
 */
const WITHOUT_NAVIGATION: Readonly<Record<string, string>> = {
  'shared/views/route-tree.tsx': [
    "import { createElement } from 'react';",
    "import { RouteValuesContext } from './shared/api/route-hooks.tsx';",
    'export function RouteTree({ levels, params, actionData }) {',
    '  const page = levels[levels.length - 1];',
    '  return createElement(RouteValuesContext, { value: { id: page.id, data: page.data, params, actionData, outlet: null } }, createElement(page.Component, { data: page.data, params, actionData }));',
    '}',
  ].join('\n'),
  // Without layouts a view is its page alone.
  'client/view.ts': 'export function levelsOf({ modules, page }) { return [{ id: "", Component: modules[modules.length - 1].default, data: page.data }]; }',
  'client/router.tsx': [
    'export function Router({ initial, render }) { return render(initial); }',
    'export function StatusOnly() { return null; }',
    'export function startNavigation() {}',
  ].join('\n'),
  'shared/api/link.tsx': "import { createElement } from 'react'; export function Link({ prefetch, replace, ...props }) { return createElement('a', props); }",
  'shared/api/form.tsx': "import { createElement } from 'react'; export function Form({ method = 'post', ...props }) { return createElement('form', { method, ...props }); }",
  'shared/api/fetcher.tsx': [
    "import { createElement } from 'react';",
    "const Form = (props) => createElement('form', { ...props, method: 'post' });",
    "export function useFetcher() { return { state: 'idle', data: undefined, error: undefined, formData: undefined, formAction: undefined, formMethod: undefined, Form, submit: async () => {}, load: async () => {}, reset: () => {} }; }",
    'export function useFetchers() { return []; }',
  ].join('\n'),
};

function withoutNavigationPlugin(): esbuild.Plugin {
  return {
    name: 'without-navigation',
    setup(build) {
      build.onLoad({ filter: /\.tsx?$/ }, (args) => {
        const stub = Object.entries(WITHOUT_NAVIGATION).find(([file]) => args.path.endsWith(file))?.[1];
        return stub === undefined ? undefined : { contents: stub, loader: 'jsx', resolveDir: ROOT };
      });
    },
  };
}

/**
 * The first load of a route built exactly as `npm run build` builds it, but with the
 * navigation runtime, `<Link>` and `<Form>` replaced by plain stand-ins: the difference to
 * `firstLoadJavaScript` is what navigation and forms cost.
 */
export async function firstLoadWithoutNavigation(routesModule: string, route: string): Promise<JavaScriptWeight> {
  return (await firstLoadBuiltInMemory(routesModule, route, [withoutNavigationPlugin()])).weight;
}

/** A page's first load, and the minified bytes each source module puts into it (esbuild's metafile). */
export interface FirstLoadParts {
  readonly weight: JavaScriptWeight;
  /** Source path (from the repository's root, as esbuild names it) to its bytes in the served files. */
  readonly modules: ReadonlyMap<string, number>;
  /** The chunks only a dynamic import loads, later if ever (the navigation runtime, web vitals): their source modules and weight. */
  readonly later: readonly LaterChunk[];
}

export interface LaterChunk {
  readonly modules: readonly string[];
  readonly bytes: number;
  readonly gzipBytes: number;
}

/**
 * The first load of a route of any route table, built in memory exactly as `npm run build` builds
 * it: what a page of an app (or a bench fixture) ships, without building the whole client.
 */
export function firstLoadOfRoute(routesModule: string, route: string): Promise<FirstLoadParts> {
  return firstLoadBuiltInMemory(routesModule, route, []);
}

async function firstLoadBuiltInMemory(routesModule: string, route: string, extraPlugins: readonly esbuild.Plugin[]): Promise<FirstLoadParts> {
  const entries = await findPageEntries(routesModule);
  const name = entries.routes.get(route);
  const file = name === undefined ? undefined : entries.files.get(name);
  if (name === undefined || file === undefined) throw new Error(`${routesModule} has no hydrating route "${route}"`);
  const only = { files: new Map([[name, file]]), layouts: new Map([[name, entries.layouts.get(name) ?? []]]), routes: new Map([[route, name]]) };
  const lazy: LazyChunk[] = [];
  const settings = clientBuildOptions(only, { outDir: join(import.meta.dirname, 'out'), mode: 'production', onLazyChunk: (chunk) => lazy.push(chunk) });
  const result = await esbuild.build({ ...settings, plugins: [...(settings.plugins ?? []), ...extraPlugins], write: false });
  const entry = Object.entries(result.metafile.outputs).find(([, meta]) => meta.entryPoint !== undefined)?.[0];
  if (entry === undefined) throw new Error('the build wrote no entry');
  const outputs = [entry, ...staticImports(result.metafile, entry)];
  const wanted = new Set(outputs.map((output) => resolve(ROOT, output)));
  const files = result.outputFiles.filter((out) => wanted.has(out.path)).map((out) => ({ name: out.path, contents: out.contents }));
  const modules = new Map<string, number>();
  for (const output of outputs)
    for (const [input, { bytesInOutput }] of Object.entries(result.metafile.outputs[output]?.inputs ?? {})) modules.set(input, (modules.get(input) ?? 0) + bytesInOutput);
  // The framework's lazy modules, each built on its own (lazy-chunks-plugin.ts), and any chunk of the page build's own that no static import reaches.
  const later = [
    ...lazy.map(({ modules: parts, contents = new Uint8Array() }) => ({ modules: parts, bytes: contents.byteLength, gzipBytes: gzipSync(contents).byteLength })),
    ...Object.entries(result.metafile.outputs)
      .filter(([output]) => output.endsWith('.js') && !wanted.has(resolve(ROOT, output)))
      .map(([output, meta]) => {
        const contents = result.outputFiles.find((out) => out.path === resolve(ROOT, output))?.contents ?? new Uint8Array();
        return { modules: Object.keys(meta.inputs), bytes: contents.byteLength, gzipBytes: gzipSync(contents).byteLength };
      }),
  ];
  return { weight: weigh(files), modules, later };
}

const SMALLEST_ENTRY = join(import.meta.dirname, 'smallest-hydrating-entry.tsx');

/** Each file is its own response, so each is gzipped on its own (zlib's default level). */
function weigh(files: readonly { readonly name: string; readonly contents: Uint8Array }[]): JavaScriptWeight {
  return {
    files: files.map((file) => file.name),
    bytes: files.reduce((sum, file) => sum + file.contents.byteLength, 0),
    gzipBytes: files.reduce((sum, file) => sum + gzipSync(file.contents).byteLength, 0),
  };
}

/** First-load JavaScript of a page of a built client (`dist/client` after `npm run build`). */
export async function firstLoadJavaScript(clientDir: string, page: string): Promise<JavaScriptWeight> {
  const urls = await firstLoadUrls(clientDir, page);
  const files = await Promise.all(urls.map(async (url) => ({ name: url, contents: await readFile(assetFile(clientDir, url)) })));
  return weigh(files);
}

/**
 * Script URLs an HTML document makes the browser fetch: `<script src>`, modulepreloads, and the
 * built files an inline script names (the page's bootstrap starts them after the first frame).
 */
export function scriptUrlsInHtml(html: string): string[] {
  const sources = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1] ?? '');
  const preloads = [...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)].map((match) => match[1] ?? '');
  // The inline script that starts the page's code (bootstrapScript): the only one that loads
  // anything, the route table's module included. The table names every page's code too, but
  // only a navigation there ever loads it.
  const started = inlineScripts(html)
    .filter((code) => code.includes('"modulepreload"'))
    .flatMap((code) => [...code.matchAll(/"(\/assets\/[^"]+\.js)"/g)].map((match) => match[1] ?? ''));
  return [...sources, ...preloads, ...started];
}

/** Inline scripts the browser runs; `application/json` data blocks are not code. */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter((match) => !/\bsrc=/.test(match[1] ?? '') && !/\btype="application\/json"/.test(match[1] ?? ''))
    .map((match) => match[2] ?? '')
    .filter((code) => code !== '');
}

/**
 * The JavaScript a served document costs the browser: the files it references and its inline
 * scripts. For pages that must ship none (status pages), this is the check. `readScript` gives
 * a referenced file's bytes: from the built client, or, for files the server makes at start
 * (the route table's module), from the server itself.
 */
export async function javaScriptOfDocument(html: string, readScript: (url: string) => Promise<Buffer>): Promise<JavaScriptWeight> {
  const files = await Promise.all(scriptUrlsInHtml(html).map(async (url) => ({ name: url, contents: await readScript(url) })));
  const inline = inlineScripts(html).map((code, index) => ({ name: `inline #${index + 1}`, contents: Buffer.from(code) }));
  return weigh([...files, ...inline]);
}

/**
 * `hydrateRoot` of one element, built with exactly the client build's esbuild settings
 * (production, minified, split ESM), in memory: the floor any hydrating page stands on.
 */
export async function smallestHydratingBundle(): Promise<JavaScriptWeight> {
  const settings = clientBuildOptions({ files: new Map(), layouts: new Map(), routes: new Map() }, { outDir: join(import.meta.dirname, 'out'), mode: 'production' });
  const result = await esbuild.build({ ...settings, entryPoints: { smallest: SMALLEST_ENTRY }, plugins: [], write: false });
  const files = result.outputFiles.filter((file) => file.path.endsWith('.js')).map((file) => ({ name: file.path, contents: file.contents }));
  return weigh(files);
}
