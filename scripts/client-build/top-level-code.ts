import ts from 'typescript';
import type { ModuleReferences } from './module-references.ts';

/** The exports that run on the server only: the browser's bundle of a page module leaves them out. */
export const SERVER_EXPORTS = ['load', 'action', 'head', 'errorHead'] as const;
export type ServerExportName = (typeof SERVER_EXPORTS)[number];

/** One of those exports as the module writes it. */
export interface ServerExport {
  readonly name: ServerExportName;
  /** What removing it cuts: a function (with its overloads), a declarator, or an `export { … }` specifier. */
  readonly nodes: readonly ts.Node[];
  /** The value it declares, when it declares one (not for `export { local as load }`): code that stays must not use it. */
  readonly symbol: ts.Symbol | undefined;
}

/** A page module's top level, sorted by what the build may cut. */
export interface TopLevelCode {
  /** Code that stays whatever happens: other exports, statements, and what the build cannot cut. */
  readonly roots: readonly ts.Node[];
  /** Values declared without `export` (functions, classes, constants, import bindings): each goes when nothing that stays uses it. */
  readonly removable: ReadonlyMap<ts.Symbol, readonly ts.Node[]>;
  readonly serverExports: readonly ServerExport[];
}

function isServerExportName(name: string): name is ServerExportName {
  return SERVER_EXPORTS.some((each) => each === name);
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node)?.some((modifier) => modifier.kind === kind) ?? false);
}

/** The value bindings of an import: its default name, its namespace, its named specifiers (`type` ones are erased). */
export function importBindings(statement: ts.ImportDeclaration): (ts.ImportClause | ts.NamespaceImport | ts.ImportSpecifier)[] {
  const clause = statement.importClause;
  if (clause === undefined || clause.isTypeOnly) return [];
  const named = clause.namedBindings;
  const rest = named === undefined ? [] : ts.isNamespaceImport(named) ? [named] : named.elements.filter((element) => !element.isTypeOnly);
  return [...(clause.name === undefined ? [] : [clause]), ...rest];
}

export function sortTopLevel(source: ts.SourceFile, references: ModuleReferences): TopLevelCode {
  const roots: ts.Node[] = [];
  const removable = new Map<ts.Symbol, ts.Node[]>();
  const serverExports = new Map<ServerExportName, { nodes: ts.Node[]; symbol: ts.Symbol | undefined }>();

  const addServerExport = (name: ServerExportName, node: ts.Node, symbol: ts.Symbol | undefined) => {
    const known = serverExports.get(name) ?? { nodes: [], symbol };
    known.nodes.push(node);
    serverExports.set(name, known);
  };
  /** A declaration: a server export, another export (stays), or a value the build may remove. */
  const declared = (node: ts.Node, name: ts.Node | undefined, exported: boolean) => {
    const symbol = name === undefined ? undefined : references.symbolOf(name);
    if (exported && name !== undefined && ts.isIdentifier(name) && isServerExportName(name.text)) addServerExport(name.text, node, symbol);
    else if (exported || symbol === undefined || name === undefined || !ts.isIdentifier(name)) roots.push(node);
    else removable.set(symbol, [...(removable.get(symbol) ?? []), node]);
  };

  for (const statement of source.statements) {
    if (hasModifier(statement, ts.SyntaxKind.DeclareKeyword) || ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) continue;
    const exported = hasModifier(statement, ts.SyntaxKind.ExportKeyword);
    if (ts.isImportDeclaration(statement)) {
      for (const binding of importBindings(statement)) declared(binding, binding.name, false);
    } else if (hasModifier(statement, ts.SyntaxKind.DefaultKeyword)) {
      roots.push(statement);
    } else if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) {
      declared(statement, statement.name, exported);
    } else if (ts.isVariableStatement(statement)) {
      for (const declarator of statement.declarationList.declarations) declared(declarator, declarator.name, exported);
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.exportClause !== undefined && ts.isNamedExports(statement.exportClause)) {
      for (const specifier of statement.exportClause.elements) {
        if (specifier.isTypeOnly) continue;
        if (isServerExportName(specifier.name.text)) addServerExport(specifier.name.text, specifier, undefined);
        else roots.push(specifier);
      }
    } else {
      roots.push(statement);
    }
  }
  return { roots, removable, serverExports: [...serverExports].map(([name, { nodes, symbol }]) => ({ name, nodes, symbol })) };
}
