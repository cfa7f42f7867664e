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

/**
 * Whether a module has a default export, read from its source. A route's module without one is
 * a resource route (its `load` answers with a `Response`): it has no component, so nothing to
 * hydrate and no browser entry.
 */
export async function hasDefaultExport(file: string): Promise<boolean> {
  return parseModule(file, await readFile(file, 'utf8')).statements.some(isDefaultExport);
}
