import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, describe, expect, test } from 'vitest';
import { type LazyChunk, lazyChunksPlugin } from '../../scripts/client-build/lazy-chunks-plugin.ts';

/**
 * The framework's lazily loaded modules (the navigation runtime, telemetry), each built as a
 * file of its own (scripts/client-build/lazy-chunks-plugin.ts), so that no page's first load
 * fetches esbuild's helpers as a file apart. Built here with the page build's settings on small
 * fixtures, as the client build uses it.
 */
const FIXTURES = join(import.meta.dirname, '..', 'support', 'lazy-chunk-fixtures');
const outDirs: string[] = [];

afterAll(async () => {
  await Promise.all(outDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function build(entry: string, lazy: string, write: boolean) {
  const outdir = await mkdtemp(join(tmpdir(), 'lazy-chunks-'));
  outDirs.push(outdir);
  const chunks: LazyChunk[] = [];
  const result = await esbuild.build({
    entryPoints: [join(FIXTURES, entry)],
    plugins: [lazyChunksPlugin({ modules: [join(FIXTURES, lazy)], onChunk: (chunk) => chunks.push(chunk) })],
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    minify: true,
    metafile: true,
    write,
    logLevel: 'silent',
  });
  return { result, chunks, outdir };
}

describe('lazily loaded framework modules', () => {
  test('are each a file of their own: the page is one file, with the helpers in it, and its import() names the lazy file', async () => {
    const { result, chunks, outdir } = await build('entry.ts', 'later-alone.ts', true);
    const files = (await readdir(outdir)).sort();
    expect(chunks).toHaveLength(1);
    const [chunk] = chunks;
    const lazyFile = chunk?.output.split('/').pop() ?? '';
    expect(lazyFile).toMatch(/^chunk-[A-Z0-9]+\.js$/);
    // The page's file and the lazy one, nothing else: no chunk of esbuild's helpers.
    const entryFile = files.find((file) => file.startsWith('entry-')) ?? '';
    expect(files).toEqual([entryFile, lazyFile].sort());
    const page = await readFile(join(outdir, entryFile), 'utf8');
    expect(page).toContain(`import("./${lazyFile}")`);
    expect(page).not.toMatch(/^import\s*["']/m);
    expect(await readFile(join(outdir, lazyFile), 'utf8')).toContain('"later"');
    expect(chunk?.modules.some((module) => module.endsWith('later-alone.ts'))).toBe(true);
    expect(Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((imported) => !imported.external))).toEqual([]);
  });

  test("without writing, hand over the lazy file's bytes", async () => {
    const { chunks, outdir } = await build('entry.ts', 'later-alone.ts', false);
    expect(await readdir(outdir)).toEqual([]);
    expect(new TextDecoder().decode(chunks[0]?.contents)).toContain('"later"');
  });

  test('fail the build when a lazy module imports a module of the first load, which would run twice', async () => {
    const failure = await build('entry-sharing.ts', 'later-sharing.ts', false).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    const errors: readonly esbuild.Message[] = Reflect.get(Object(failure), 'errors') ?? [];
    expect(errors.map((error) => error.text)).toEqual([expect.stringMatching(/shared\.ts is in a page's first load and in the lazily loaded .*later-sharing\.ts/)]);
  });
});
