import ts from 'typescript';
import { isExported } from './default-export.ts';
import { LocatedError } from './located-error.ts';
import { parseModule } from './parse-module.ts';

/**
 * Route-module exports of React Router that this framework does not read, each with what takes
 * its place here (docs/building-an-app.md). Exported from a page or layout, one is silently
 * ignored at run time (a `loader` never runs, its page gets no data): the build refuses it.
 */
const FOREIGN_EXPORTS: Readonly<Record<string, string>> = {
  loader: 'its server data comes from `load`',
  clientLoader: 'data loads on the server only, through `load`',
  clientAction: 'posts run on the server only, through `action`',
  meta: 'its head tags come from `head`',
  links: 'its stylesheets are the CSS files it imports',
  headers: 'its headers come from `data(value, { headers })` in `load` or `action`',
  HydrateFallback: 'the page renders on the server, so it needs no fallback while it hydrates',
};

const MENTIONS = new RegExp(`\\b(?:${Object.keys(FOREIGN_EXPORTS).join('|')})\\b`);

/** A page or layout module exports a name the framework does not read; says where. */
export class ForeignExportError extends LocatedError {
  override readonly name = 'ForeignExportError';
}

/** The names a module's own statements export, each with the node that names it. */
function exportedNames(source: ts.SourceFile): Array<readonly [string, ts.Node]> {
  const names: Array<readonly [string, ts.Node]> = [];
  for (const statement of source.statements) {
    if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name !== undefined && isExported(statement)) {
      names.push([statement.name.text, statement.name]);
    } else if (ts.isVariableStatement(statement) && isExported(statement)) {
      for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) names.push([declaration.name.text, declaration.name]);
    } else if (ts.isExportDeclaration(statement) && statement.exportClause !== undefined && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) names.push([element.name.text, element.name]);
    }
  }
  return names;
}

/** Throws ForeignExportError when a page or layout module exports one of FOREIGN_EXPORTS. */
export function refuseForeignExports(text: string, file: string): void {
  if (!MENTIONS.test(text)) return;
  const source = parseModule(file, text);
  for (const [name, node] of exportedNames(source)) {
    const instead = Object.hasOwn(FOREIGN_EXPORTS, name) ? FOREIGN_EXPORTS[name] : undefined;
    if (instead !== undefined) throw new ForeignExportError(`exports \`${name}\`, which this framework does not read: ${instead}`, source, node);
  }
}
