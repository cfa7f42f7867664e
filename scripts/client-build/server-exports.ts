import type ts from 'typescript';
import { cutCode } from './cut-code.ts';
import { LocatedError } from './located-error.ts';
import { moduleReferences, type ModuleReferences } from './module-references.ts';
import { parseModule } from './parse-module.ts';
import { sortTopLevel, type ServerExport } from './top-level-code.ts';

/** A page's browser code uses `load` or `action`, which its bundle leaves out; says where. */
export class ServerExportInBrowserError extends LocatedError {
  override readonly name = 'ServerExportInBrowserError';
}

/** Every value that code in `roots` uses, and what those values' declarations use in turn. */
function usedValues(references: ModuleReferences, declarations: ReadonlyMap<ts.Symbol, readonly ts.Node[]>, roots: readonly ts.Node[]): Set<ts.Symbol> {
  const used = new Set<ts.Symbol>();
  const pending = [...roots];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    for (const symbol of references.valuesUsedIn(node)) {
      if (used.has(symbol)) continue;
      used.add(symbol);
      pending.push(...(declarations.get(symbol) ?? []));
    }
  }
  return used;
}

/**
 * A page module as the browser's bundle gets it: without `load`, `action` and `head`, and
 * without the declarations and imports that only they used (found to a fixed point: a helper
 * only `load` used goes, and so does the import only that helper used). What the module's
 * author left unused stays as written; side-effect imports (`import './x.css'`) stay. `head`
 * stays when the component uses it. Cut code becomes spaces, so every line keeps its number.
 * Undefined when the module has none of the three.
 */
export function withoutServerExports(text: string, file: string): string | undefined {
  if (!/\b(?:load|action|head)\b/.test(text)) return undefined;
  const source = parseModule(file, text);
  const references = moduleReferences(source);
  const code = sortTopLevel(source, references);
  if (code.serverExports.length === 0) return undefined;
  const declarations = new Map(code.removable);
  for (const { symbol, nodes } of code.serverExports) if (symbol !== undefined) declarations.set(symbol, nodes);

  const usedAsWritten = usedValues(references, declarations, [...code.roots, ...code.serverExports.flatMap(({ nodes }) => nodes)]);
  const unusedAsWritten = [...code.removable].filter(([symbol]) => !usedAsWritten.has(symbol));
  const kept = [...code.roots, ...unusedAsWritten.flatMap(([, nodes]) => nodes)];
  const used = usedValues(references, declarations, kept);
  const isUsed = ({ symbol }: ServerExport) => symbol !== undefined && used.has(symbol);

  const misused = code.serverExports.find((serverExport) => serverExport.name !== 'head' && isUsed(serverExport));
  if (misused?.symbol !== undefined) {
    const stays = [...kept, ...[...code.removable].filter(([symbol]) => used.has(symbol)).flatMap(([, nodes]) => nodes)];
    throw new ServerExportInBrowserError(
      `the browser's code of the page uses \`${misused.name}\`, which runs on the server only and is left out of the browser's bundle (move what both need into a function of its own)`,
      source,
      references.firstUse(misused.symbol, stays) ?? misused.nodes[0] ?? source,
    );
  }
  const cut = new Set<ts.Node>([
    ...code.serverExports.filter((serverExport) => !isUsed(serverExport)).flatMap(({ nodes }) => nodes),
    ...[...code.removable].filter(([symbol]) => usedAsWritten.has(symbol) && !used.has(symbol)).flatMap(([, nodes]) => nodes),
  ]);
  return cutCode(source, cut);
}
