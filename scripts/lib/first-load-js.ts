import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { clientBuildOptions } from '../build-client.ts';
import { assetFile, firstLoadUrls } from './manifest-urls.ts';

/** What a browser downloads before a page can run: bytes as served, and gzipped. */
export interface JavaScriptWeight {
  readonly files: readonly string[];
  readonly bytes: number;
  readonly gzipBytes: number;
}

/** Extra gzip bytes `/` may ship beyond the smallest hydrating bundle: the bench's target and the budget test's limit. */
export const FIRST_LOAD_ALLOWANCE_BYTES = 3 * 1024;

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
  const files = await Promise.all(
    urls.map(async (url) => ({ name: url, contents: await readFile(assetFile(clientDir, url)) })),
  );
  return weigh(files);
}

/** Script URLs an HTML document makes the browser fetch: `<script src>` and modulepreloads. */
export function scriptUrlsInHtml(html: string): string[] {
  const sources = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1] ?? '');
  const preloads = [...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)].map((match) => match[1] ?? '');
  return [...sources, ...preloads];
}

/** Inline scripts the browser runs; `application/json` data blocks are not code. */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([^]*?)<\/script>/g)]
    .filter((match) => !/\bsrc=/.test(match[1] ?? '') && !/\btype="application\/json"/.test(match[1] ?? ''))
    .map((match) => match[2] ?? '')
    .filter((code) => code !== '');
}

/**
 * The JavaScript a served document costs the browser: the built files it references and its
 * inline scripts. For pages that must ship none (status pages), this is the check.
 */
export async function javaScriptOfDocument(html: string, clientDir: string): Promise<JavaScriptWeight> {
  const files = await Promise.all(
    scriptUrlsInHtml(html).map(async (url) => ({ name: url, contents: await readFile(assetFile(clientDir, url)) })),
  );
  const inline = inlineScripts(html).map((code, index) => ({ name: `inline #${index + 1}`, contents: Buffer.from(code) }));
  return weigh([...files, ...inline]);
}

/**
 * `hydrateRoot` of one element, built with exactly the client build's esbuild settings
 * (production, minified, split ESM), in memory: the floor any hydrating page stands on.
 */
export async function smallestHydratingBundle(): Promise<JavaScriptWeight> {
  const settings = clientBuildOptions(new Map(), { outDir: join(import.meta.dirname, 'out'), mode: 'production' });
  const result = await esbuild.build({ ...settings, entryPoints: { smallest: SMALLEST_ENTRY }, plugins: [], write: false });
  const files = result.outputFiles.filter((file) => file.path.endsWith('.js')).map((file) => ({ name: file.path, contents: file.contents }));
  return weigh(files);
}
