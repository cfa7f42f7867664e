import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const SERVER = resolve(import.meta.dirname, '..', '..', 'server');
const SHARED = resolve(import.meta.dirname, '..', '..', 'shared');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The folder of `root` a file is in; a file directly in it (app.ts, config.ts…) stands for itself. */
function folderOf(root: string, file: string): string {
  return relative(root, file).split('/')[0] ?? '';
}

/** Each import or re-export of a text: its relative module, and whether it brings types alone. */
const IMPORT = /^(?:import|export)\s+(type\s+)?[^;]*?from '(\.[^']+)'/gms;

/**
 * Which folders of `root` each folder imports from, by the relative imports of its files;
 * with `values`, only imports that bring values (an `import type` is erased from the build).
 */
function folderGraph(root = SERVER, { values = false } = {}): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(root)) {
    const from = folderOf(root, file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const [, typesOnly, module] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      if (values && typesOnly !== undefined) continue;
      const target = resolve(dirname(file), module ?? '');
      if (!target.startsWith(`${root}/`)) continue;
      const to = folderOf(root, target);
      if (to !== from) edges.add(to);
    }
  }
  return graph;
}

/** Every cycle's folders, found by a depth-first walk. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const walk = (node: string, path: string[]) => {
    for (const next of graph.get(node) ?? []) {
      const at = path.indexOf(next);
      if (at !== -1) found.push([...path.slice(at), next]);
      else walk(next, [...path, next]);
    }
  };
  for (const node of graph.keys()) walk(node, [node]);
  return found;
}

describe('the folders of server/', () => {
  test('depend one way: no folder reaches back to one that imports it', () => {
    expect(cycles(folderGraph())).toEqual([]);
  });

  test('http/ (the plain HTTP pieces every part shares) imports no other part', () => {
    expect([...(folderGraph().get('http') ?? [])]).toEqual([]);
  });

  test('the walk finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(cycles(graph).length).toBeGreaterThan(0);
  });
});

describe('the folders of shared/, by audience', () => {
  // wording/ (the product's words) ← protocol/ (what server and browser agree on) ← api/ (what
  // an app imports, through shared/index.ts) ← views/ (what the framework renders on both sides).
  const graph = folderGraph(SHARED, { values: true });

  test('wording/ imports nothing of shared/', () => {
    expect([...(graph.get('wording') ?? [])]).toEqual([]);
  });

  test("protocol/ brings in no value of the app's API or the views: its imports of api/ are types", () => {
    expect([...(graph.get('protocol') ?? [])].filter((folder) => folder !== 'wording')).toEqual([]);
    expect(folderGraph(SHARED).get('protocol')?.has('api')).toBe(true);
  });

  test("api/ never reaches the framework's views", () => {
    expect(graph.get('api')?.has('views')).toBe(false);
    expect([...(graph.get('api') ?? [])].every((folder) => ['protocol', 'wording'].includes(folder))).toBe(true);
  });

  test('every file of shared/ but its door is in one of the four folders', () => {
    const folders = new Set(sourceFiles(SHARED).map((file) => folderOf(SHARED, file)));
    expect([...folders].sort()).toEqual(['api', 'index.ts', 'protocol', 'views', 'wording']);
  });
});
