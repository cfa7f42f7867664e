import ts from 'typescript';

/** Which top-level values a piece of a module uses, by the TypeScript checker's own scopes (a local that shadows one is not it). */
export interface ModuleReferences {
  /** The symbol a declaration's name binds. */
  symbolOf(name: ts.Node): ts.Symbol | undefined;
  /** Every symbol that code in `node` uses as a value: types, `typeof x` in a type, and `implements` are erased and do not count. */
  valuesUsedIn(node: ts.Node): ReadonlySet<ts.Symbol>;
  /** Where code in `nodes` first uses `symbol` as a value. */
  firstUse(symbol: ts.Symbol, nodes: readonly ts.Node[]): ts.Identifier | undefined;
}

/**
 * A program of this one file: the checker binds its names without reading any other file or
 * library (an import is a symbol of its own, which is all a reference needs).
 */
function singleFileChecker(source: ts.SourceFile): ts.TypeChecker {
  const host: ts.CompilerHost = {
    getSourceFile: (fileName) => (fileName === source.fileName ? source : undefined),
    getDefaultLibFileName: () => 'lib.d.ts',
    writeFile: () => undefined,
    getCurrentDirectory: () => '/',
    getCanonicalFileName: (fileName) => fileName,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (fileName) => fileName === source.fileName,
    readFile: () => undefined,
  };
  const options: ts.CompilerOptions = { noLib: true, noResolve: true, types: [], allowJs: true, jsx: ts.JsxEmit.Preserve };
  return ts.createProgram({ rootNames: [source.fileName], options, host }).getTypeChecker();
}

/** A class's `extends` is a value; every other type node is erased. */
function isErasedType(node: ts.Node): boolean {
  if (ts.isExpressionWithTypeArguments(node))
    return !(ts.isHeritageClause(node.parent) && node.parent.token === ts.SyntaxKind.ExtendsKeyword && ts.isClassLike(node.parent.parent));
  return ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node);
}

export function moduleReferences(source: ts.SourceFile): ModuleReferences {
  const checker = singleFileChecker(source);
  const cache = new Map<ts.Node, ReadonlySet<ts.Symbol>>();

  function symbolUsedBy(node: ts.Identifier): ts.Symbol | undefined {
    const parent = node.parent;
    if (ts.isShorthandPropertyAssignment(parent) && parent.name === node) return checker.getShorthandAssignmentValueSymbol(parent);
    if (ts.isExportSpecifier(parent)) return parent.parent.parent.moduleSpecifier === undefined ? checker.getExportSpecifierLocalTargetSymbol(parent) : undefined;
    return checker.getSymbolAtLocation(node);
  }

  /** Calls `found` for each identifier in `node` that uses a value, until it returns true. */
  function eachValueUse(node: ts.Node, found: (identifier: ts.Identifier, symbol: ts.Symbol) => boolean): boolean {
    // An import binds a name and uses none (a default import's clause holds its named ones too).
    if (isErasedType(node) || ts.isImportDeclaration(node) || ts.isImportClause(node) || ts.isImportSpecifier(node) || ts.isNamespaceImport(node)) return false;
    if (ts.isExportSpecifier(node) && node.isTypeOnly) return false;
    if (ts.isIdentifier(node)) {
      const symbol = symbolUsedBy(node);
      if (symbol !== undefined && found(node, symbol)) return true;
    }
    return ts.forEachChild(node, (child) => eachValueUse(child, found) || undefined) ?? false;
  }

  return {
    symbolOf: (name) => checker.getSymbolAtLocation(name),
    valuesUsedIn(node) {
      const known = cache.get(node);
      if (known !== undefined) return known;
      const used = new Set<ts.Symbol>();
      eachValueUse(node, (_identifier, symbol) => {
        used.add(symbol);
        return false;
      });
      cache.set(node, used);
      return used;
    },
    firstUse(symbol, nodes) {
      const uses = nodes.flatMap((node) => {
        let use: ts.Identifier | undefined;
        eachValueUse(node, (identifier, used) => {
          if (used === symbol) use = identifier;
          return use !== undefined;
        });
        return use === undefined ? [] : [use];
      });
      return uses.sort((a, b) => a.pos - b.pos)[0];
    },
  };
}
