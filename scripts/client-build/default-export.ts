import { readFile } from 'node:fs/promises';
import ts from 'typescript';
import { parseModule } from './parse-module.ts';

function isDefaultExport(statement: ts.Statement): boolean {
  if (ts.isExportAssignment(statement)) return !statement.isExportEquals;
  if (ts.isExportDeclaration(statement)) {
    const clause = statement.exportClause;
    return !statement.isTypeOnly && clause !== undefined && ts.isNamedExports(clause) && clause.elements.some((element) => !element.isTypeOnly && element.name.text === 'default');
  }
  const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
  return modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword) && !ts.isInterfaceDeclaration(statement);
}

/** Whether a statement of a module is exported (`export function`, `export const`, ...). */
export function isExported(statement: ts.Statement): boolean {
  return ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
}

/** A function exported under a capitalised name (`export function BooksPage`), as components are named; undefined when there is none. */
function componentLikeExport(source: ts.SourceFile): string | undefined {
  for (const statement of source.statements) {
    if (!isExported(statement)) continue;
    if (ts.isFunctionDeclaration(statement) && statement.name !== undefined && /^[A-Z]/.test(statement.name.text)) return statement.name.text;
    if (!ts.isVariableStatement(statement)) continue;
    for (const { name, initializer } of statement.declarationList.declarations) {
      const isFunction = initializer !== undefined && (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer));
      if (isFunction && ts.isIdentifier(name) && /^[A-Z]/.test(name.text)) return name.text;
    }
  }
  return undefined;
}

/** What the build reads of a route's module: whether it has a default export, and if not, a component it exports by name. */
export interface RouteModuleShape {
  readonly hasDefault: boolean;
  readonly namedComponent: string | undefined;
}

/**
 * A route's module, read from its source. One without a default export is a resource route (its
 * `load` answers with a `Response`): it has no component, so nothing to hydrate and no browser
 * entry. `namedComponent` is the name of a function such a module exports as a component would
 * be named: a page whose component lost its `default`.
 */
export async function readRouteModule(file: string): Promise<RouteModuleShape> {
  const source = parseModule(file, await readFile(file, 'utf8'));
  const hasDefault = source.statements.some(isDefaultExport);
  return { hasDefault, namedComponent: hasDefault ? undefined : componentLikeExport(source) };
}
