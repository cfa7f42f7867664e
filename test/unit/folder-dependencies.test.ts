import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const SERVER = resolve(import.meta.dirname, '..', '..', 'server');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The folder of `server/` a file is in; a file directly in `server/` (app.ts, config.ts…) stands for itself. */
function folderOf(file: string): string {
  const parts = relative(SERVER, file).split('/');
  return parts.length > 1 ? (parts[0] ?? '') : (parts[0] ?? '');
}

/** Which folders of server/ each folder imports from, by the relative imports of its files. */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(SERVER)) {
    const from = folderOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const target = resolve(dirname(file), match[1] ?? '');
      if (!target.startsWith(`${SERVER}/`)) continue;
      const to = folderOf(target);
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
