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
  meta: 'its head tags come from `head`, and from `errorHead` while its ErrorBoundary shows',
  links: 'its stylesheets are the CSS files it imports',
  headers: 'its headers come from `data(value, { headers })` in `load` or `action`',
  HydrateFallback: 'the page renders on the server, so it needs no fallback while it hydrates',
  handle: "there is no `useMatches()`: a child reads its layouts' data with `useRouteLoaderData(id)`",
};

/** How a module is used in the route table: what one role reads, the other does not. */
export type RouteModuleRole = 'page' | 'layout' | 'page and layout';

/** Names a page module reads but a layout does not, and the other way round, with what to do instead. */
const NOT_READ_IN: Readonly<Record<'page' | 'layout', Readonly<Record<string, string>>>> = {
  layout: { action: 'a layout has no action: posts go to the page that holds the form (its `action`), or to a resource route' },
  page: { shouldRevalidate: "only a layout's data is kept across navigations: a page's `load` runs on every visit to it" },
};

const MENTIONS = new RegExp(`\\b(?:${[...Object.keys(FOREIGN_EXPORTS), 'action', 'shouldRevalidate'].join('|')})\\b`);

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

function notReadAs(role: RouteModuleRole, name: string): string | undefined {
  if (role === 'page and layout') return undefined;
  const names = NOT_READ_IN[role];
  return Object.hasOwn(names, name) ? names[name] : undefined;
}

/**
 * Throws ForeignExportError when a page or layout module exports one of FOREIGN_EXPORTS, or a
 * name its role does not read (a layout's `action`, a page's `shouldRevalidate`).
 */
export function refuseForeignExports(text: string, file: string, role: RouteModuleRole): void {
  if (!MENTIONS.test(text)) return;
  const source = parseModule(file, text);
  for (const [name, node] of exportedNames(source)) {
    const instead = Object.hasOwn(FOREIGN_EXPORTS, name) ? FOREIGN_EXPORTS[name] : undefined;
    if (instead !== undefined) throw new ForeignExportError(`exports \`${name}\`, which this framework does not read: ${instead}`, source, node);
    const unread = notReadAs(role, name);
    if (unread !== undefined) throw new ForeignExportError(`exports \`${name}\`, which a ${role} module does not have: ${unread}`, source, node);
  }
}
