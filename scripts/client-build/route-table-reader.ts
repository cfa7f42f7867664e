import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import ts from 'typescript';
import { readRouteModule } from './default-export.ts';
import { displayPath } from './display-path.ts';
import { isRelativeSpecifier, resolveRelativeModule } from './relative-module.ts';
import { parseModule } from './parse-module.ts';
import { routePathProblem } from '../../server/render/route-path.ts';
import { NOT_FOUND_PATH } from '../../shared/api/not-found-route.ts';

/** The page modules to bundle: entry name (the file's name) → file and the layout modules around it, outermost first; route path → entry name. */
export interface PageEntries {
  readonly files: ReadonlyMap<string, string>;
  readonly layouts: ReadonlyMap<string, readonly string[]>;
  readonly routes: ReadonlyMap<string, string>;
}

/** A route table the build cannot read without running it; the message names the file, the line and what to write. */
export class RouteTableError extends Error {
  override readonly name = 'RouteTableError';
}

/** One `route()` call of a table: its path, its module's file and the layout modules around it. */
export interface PageRoute {
  readonly path: string;
  readonly file: string;
  /** The layout modules around it, outermost first. */
  readonly layouts: readonly string[];
}

/** The bindings of a table module's imports that the reader understands. */
interface TableImports {
  /** Local names of `route` (shared/api/route-definition.ts). */
  readonly routeFunctions: ReadonlySet<string>;
  /** Local names of `layout`. */
  readonly layoutFunctions: ReadonlySet<string>;
  /** `import * as name from './page.tsx'`: name → specifier. */
  readonly namespaces: ReadonlyMap<string, string>;
  /** `import { routes as name } from './other-table.ts'`: name → specifier, for a table spread into this one. */
  readonly named: ReadonlyMap<string, string>;
}

function importsOf(source: ts.SourceFile): TableImports {
  const routeFunctions = new Set<string>();
  const layoutFunctions = new Set<string>();
  const namespaces = new Map<string, string>();
  const named = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const clause = statement.importClause;
    if (clause === undefined || clause.isTypeOnly) continue;
    const specifier = statement.moduleSpecifier.text;
    const bindings = clause.namedBindings;
    if (bindings !== undefined && ts.isNamespaceImport(bindings)) namespaces.set(bindings.name.text, specifier);
    if (bindings === undefined || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      if (element.isTypeOnly) continue;
      const imported = (element.propertyName ?? element.name).getText(source);
      if (imported === 'route') routeFunctions.add(element.name.text);
      else if (imported === 'layout') layoutFunctions.add(element.name.text);
      else named.set(element.name.text, specifier);
    }
  }
  return { routeFunctions, layoutFunctions, namespaces, named };
}

/** Reads one `layout(module, children, options)` call's module: a namespace import of this project, or a RouteTableError saying what to write. */
function layoutModule(call: ts.CallExpression, table: string, source: ts.SourceFile, imports: TableImports): string {
  const where = `${displayPath(table)}:${source.getLineAndCharacterOfPosition(call.getStart(source)).line + 1}`;
  const [moduleArgument] = call.arguments;
  const specifier = moduleArgument !== undefined && ts.isIdentifier(moduleArgument) ? imports.namespaces.get(moduleArgument.text) : undefined;
  const file = specifier !== undefined && isRelativeSpecifier(specifier) ? resolveRelativeModule(table, specifier) : undefined;
  if (file === undefined) {
    throw new RouteTableError(
      `${where}: layout(): its module is not a module of this project imported with \`import * as\` (write the layout in its own file, \`import * as root from './layouts/root.tsx'\`, and pass \`root\` to layout())`,
    );
  }
  return file;
}

/** The `id` a `layout()` call's options give as a string literal; undefined when written otherwise. */
function literalLayoutId(options: ts.Expression | undefined): string | undefined {
  if (options === undefined || !ts.isObjectLiteralExpression(options)) return undefined;
  for (const property of options.properties) {
    if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name) && property.name.text === 'id' && ts.isStringLiteralLike(property.initializer))
      return property.initializer.text;
  }
  return undefined;
}

/**
 * The file of the page a `layout()` call's options name as `notFound` (shared/api/not-found-route.ts),
 * a namespace import of this project as a route's page is; undefined when it names none.
 */
function notFoundModule(call: ts.CallExpression, table: string, source: ts.SourceFile, imports: TableImports): string | undefined {
  const options = call.arguments[2];
  if (options === undefined || !ts.isObjectLiteralExpression(options)) return undefined;
  for (const property of options.properties) {
    // `notFound: missing`, or `{ notFound }` naming the import itself.
    let value: ts.Expression | undefined;
    if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name) && property.name.text === 'notFound') value = property.initializer;
    else if (ts.isShorthandPropertyAssignment(property) && property.name.text === 'notFound') value = property.name;
    if (value === undefined) continue;
    const specifier = ts.isIdentifier(value) ? imports.namespaces.get(value.text) : undefined;
    const file = specifier !== undefined && isRelativeSpecifier(specifier) ? resolveRelativeModule(table, specifier) : undefined;
    if (file !== undefined) return file;
    const where = `${displayPath(table)}:${source.getLineAndCharacterOfPosition(property.getStart(source)).line + 1}`;
    throw new RouteTableError(
      `${where}: layout(): its notFound page is not a module of this project imported with \`import * as\` (write the page in its own file, \`import * as missing from './pages/missing.tsx'\`, and pass \`notFound: missing\`)`,
    );
  }
  return undefined;
}

/**
 * Refuses, at build time, the layout() mistakes the server would refuse only as it starts (or
 * not at all): an empty list of routes, which frames nothing, and an id another layout has.
 * `ids` maps each id met so far to where it was written.
 */
function checkLayout(call: ts.CallExpression, table: string, source: ts.SourceFile, ids: Map<string, string>): void {
  const where = `${displayPath(table)}:${source.getLineAndCharacterOfPosition(call.getStart(source)).line + 1}`;
  const [, children, options] = call.arguments;
  if (children !== undefined && ts.isArrayLiteralExpression(children) && children.elements.length === 0) {
    throw new RouteTableError(`${where}: layout(): its list of routes is empty, so it frames nothing (put the routes it frames in its second argument)`);
  }
  const id = literalLayoutId(options);
  if (id === undefined) return;
  const first = ids.get(id);
  if (first !== undefined) throw new RouteTableError(`${where}: layout(): the id "${id}" is already the id of the layout at ${first} (layout ids are unique)`);
  ids.set(id, where);
}

/** Reads one `route(path, page)` call: a string literal and a namespace import, or a RouteTableError saying what to write. */
function pageRoute(call: ts.CallExpression, table: string, source: ts.SourceFile, imports: TableImports, layouts: readonly string[]): PageRoute {
  const where = `${displayPath(table)}:${source.getLineAndCharacterOfPosition(call.getStart(source)).line + 1}`;
  const [pathArgument, pageArgument] = call.arguments;
  if (pathArgument === undefined || !ts.isStringLiteralLike(pathArgument)) {
    const written = call.arguments.map((argument) => argument.getText(source)).join(', ');
    throw new RouteTableError(`${where}: route(${written}): write the path as a string literal, as in route('/products/:id', product)`);
  }
  const path = pathArgument.text;
  const pathProblem = routePathProblem(path);
  if (pathProblem !== undefined) throw new RouteTableError(`${where}: Route ${path}: ${pathProblem}`);
  const specifier = pageArgument !== undefined && ts.isIdentifier(pageArgument) ? imports.namespaces.get(pageArgument.text) : undefined;
  if (specifier === undefined) {
    throw new RouteTableError(
      `${where}: Route ${path}: its page is not a module of this project imported with \`import * as\` (write the page in its own file, \`import * as page from './pages/page.tsx'\`, and pass \`page\` to route())`,
    );
  }
  const file = isRelativeSpecifier(specifier) ? resolveRelativeModule(table, specifier) : undefined;
  if (file === undefined)
    throw new RouteTableError(`${where}: Route ${path}: no file of this project for '${specifier}' (import the page module with a relative path, as in './pages/page.tsx')`);
  return { path, file, layouts };
}

/**
 * Every `route()` call of a table module, in the order written, wherever it stands (inside
 * `{ ...route('/x', page), load }` too), and the routes of the tables it spreads into its own
 * array (`[...routes, …]` of a table imported by name from a relative module).
 */
async function readTable(table: string, seen: Set<string>, ids: Map<string, string>, around: readonly string[] = []): Promise<PageRoute[]> {
  seen.add(table);
  const source = parseModule(table, await readFile(table, 'utf8'));
  const imports = importsOf(source);
  const found: (PageRoute | { readonly included: string; readonly layouts: readonly string[] })[] = [];
  const visit = (node: ts.Node, layouts: readonly string[]): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && imports.routeFunctions.has(node.expression.text)) {
      found.push(pageRoute(node, table, source, imports, layouts));
      return;
    }
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && imports.layoutFunctions.has(node.expression.text)) {
      checkLayout(node, table, source, ids);
      // The routes inside a layout (its second argument) have it around them.
      const inside = [...layouts, layoutModule(node, table, source, imports)];
      // Stryker disable next-line MethodExpression: equivalent; the first argument is the module's name, where no route() stands
      for (const argument of node.arguments.slice(1)) visit(argument, inside);
      // Its not-found page, inside it, after every route (the server mounts it last).
      const notFound = notFoundModule(node, table, source, imports);
      if (notFound !== undefined) found.push({ path: NOT_FOUND_PATH, file: notFound, layouts: inside });
      return;
    }
    if (ts.isSpreadElement(node) && ts.isArrayLiteralExpression(node.parent) && ts.isIdentifier(node.expression)) {
      const specifier = imports.named.get(node.expression.text);
      const included = specifier !== undefined && isRelativeSpecifier(specifier) ? resolveRelativeModule(table, specifier) : undefined;
      if (included !== undefined) found.push({ included, layouts });
    }
    ts.forEachChild(node, (child) => visit(child, layouts));
  };
  visit(source, around);
  const routes: PageRoute[] = [];
  for (const item of found) {
    if (!('included' in item)) routes.push(item);
    else if (!seen.has(item.included)) routes.push(...(await readTable(item.included, seen, ids, item.layouts)));
  }
  return routes;
}

/** Every `route()` call of a table and the tables it spreads, in the order written, read without running them (resource routes' too). */
export function readRouteTable(routesModule: string): Promise<readonly PageRoute[]> {
  return readTable(routesModule, new Set(), new Map());
}

/**
 * The page modules a route table names, read from its source with the TypeScript parser: the
 * build never runs the table (nor the app's modules), so a table may do anything at import
 * while the build stays a pure function of the files. A module without a default export is a
 * resource route's, and has no entry.
 */
export async function findPageEntries(routesModule: string): Promise<PageEntries> {
  const files = new Map<string, string>();
  const layoutsOf = new Map<string, readonly string[]>();
  const names = new Map<string, string>();
  const routes = new Map<string, string>();
  const hydrates = new Map<string, boolean>();
  const table = await readRouteTable(routesModule);
  if (table.filter((route) => route.path === NOT_FOUND_PATH).length > 1)
    throw new RouteTableError(`${displayPath(routesModule)}: two layouts name a notFound page: one layout of the table names it, and it shows for every address no route has`);
  for (const { path, file, layouts } of table) {
    // Stryker disable next-line ConditionalExpression: equivalent; it only spares reading a module a second time
    if (!hydrates.has(file)) {
      const { hasDefault, namedComponent } = await readRouteModule(file);
      if (namedComponent !== undefined) {
        throw new RouteTableError(
          `Route ${path}: ${displayPath(file)} has no default export, so it would be a resource route, yet it exports \`${namedComponent}\` as a component is named: make the page's component its default export (\`export default function ${namedComponent}\`)`,
        );
      }
      hydrates.set(file, hasDefault);
    }
    if (hydrates.get(file) !== true) continue;
    // One entry per page module and the layouts around it: the same page in two places is two entries.
    // Stryker disable next-line StringLiteral: equivalent for any real table: a key joined without a separator meets another only where one file's path is two others' end to end
    const key = [...layouts, file].join('\n');
    let name = names.get(key);
    if (name === undefined) {
      const base = basename(file, extname(file));
      name = files.has(base) ? `${base}-${files.size}` : base;
      names.set(key, name);
      files.set(name, file);
      layoutsOf.set(name, layouts);
    }
    routes.set(path, name);
  }
  return { files, layouts: layoutsOf, routes };
}
