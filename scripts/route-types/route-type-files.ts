import { basename, dirname, extname, isAbsolute, join, relative, sep } from 'node:path';
import { readRouteModule } from '../client-build/default-export.ts';
import { readRouteTable } from '../client-build/route-table-reader.ts';
import { paramsOfPath, type ParamSet } from './path-params.ts';
import { paramsType } from './params-type.ts';

/** Where the route types go, inside the project: the tsconfig's `rootDirs` lays it over the project's own folders. */
export const ROUTE_TYPES_FOLDER = join('.react-stream-shell', 'types');

/** One generated file: where it goes and what it holds. */
export interface RouteTypesFile {
  readonly file: string;
  readonly content: string;
}

/** How a module stands in the table: the paths it is the route of, and for a layout the paths of the pages inside it. */
interface Mounting {
  readonly routePaths: Set<string>;
  readonly pagePathsInside: Set<string>;
  isLayout: boolean;
}

const NO_PARAMS: ParamSet = new Map();

function slashes(path: string): string {
  return path.split(sep).join('/');
}

/** The first line of every file written for `table`: how a later run knows the files it may remove. */
export function generatedHeader(table: string): string {
  return `// Written by react-stream-shell from ${table}: do not edit (the build, dev and \`react-stream-shell typegen\` write it again).`;
}

function quotedPaths(paths: Iterable<string>): string {
  return [...paths].map((path) => `'${path}'`).join(', ');
}

function typesFileContent(table: string, module: string, importPath: string, mounting: Mounting): string {
  const { routePaths, pagePathsInside, isLayout } = mounting;
  // A layout's load is given no parameters (its data holds for every page inside it); its component, the page's.
  const loadSets = [...[...routePaths].map(paramsOfPath), ...(isLayout ? [NO_PARAMS] : [])];
  const viewSets = [...routePaths, ...pagePathsInside].map(paramsOfPath);
  const where = [
    ...(routePaths.size > 0 ? [`the route of ${quotedPaths(routePaths)}`] : []),
    ...(isLayout ? [`the layout of ${pagePathsInside.size > 0 ? quotedPaths(pagePathsInside) : 'no page'}`] : []),
  ].join(', and ');
  return [
    generatedHeader(table),
    "import type { ActionContext as AnyActionContext, LoadContext as AnyLoadContext, LoadedData, PageProps as AnyPageProps } from 'react-stream-shell';",
    '',
    `type Module = typeof import('${importPath}');`,
    'type Data = Module extends { readonly load: infer Load extends (...args: never[]) => unknown } ? LoadedData<Load> : undefined;',
    '',
    `/** ${module} in ${table}: ${where}. */`,
    'export namespace Route {',
    '  /** The path parameters its component, its props, its head and `useParams<Route.Params>()` are given. */',
    `  export type Params = ${paramsType(viewSets)};`,
    "  /** The path parameters its `load` and `action` are given (none for a layout's `load`). */",
    `  export type LoadParams = ${paramsType(loadSets)};`,
    '  export type LoadContext = AnyLoadContext<LoadParams>;',
    '  export type ActionContext = AnyActionContext<LoadParams>;',
    '  export type PageProps = AnyPageProps<Data, Params>;',
    '}',
    '',
  ].join('\n');
}

/** Whether `file` is inside `folder`. */
function isInside(folder: string, file: string): boolean {
  const inside = relative(folder, file);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside);
}

/**
 * The route types of a table (React Router's typegen, for this framework's table): for each
 * module of the project it names, `<types folder>/<its folder>/+types/<its name>.ts`, which the
 * module imports as `./+types/<its name>.ts` (`import type { Route }`): `Route.LoadContext`,
 * `Route.ActionContext`, `Route.PageProps` and `Route.Params`, typed from the paths the table
 * mounts it at. Read without running the table, as the client build reads it.
 */
export async function routeTypeFiles(routesModule: string, project: string): Promise<RouteTypesFile[]> {
  const table = slashes(relative(project, routesModule));
  const mountings = new Map<string, Mounting>();
  const mountingOf = (file: string): Mounting => {
    let found = mountings.get(file);
    if (found === undefined) {
      found = { routePaths: new Set(), pagePathsInside: new Set(), isLayout: false };
      mountings.set(file, found);
    }
    return found;
  };
  const hasComponent = new Map<string, boolean>();
  for (const { path, file, layouts } of await readRouteTable(routesModule)) {
    mountingOf(file).routePaths.add(path);
    if (!hasComponent.has(file)) hasComponent.set(file, (await readRouteModule(file)).hasDefault);
    for (const layout of layouts) {
      const around = mountingOf(layout);
      around.isLayout = true;
      // A resource route renders no layout: its path is no layout component's.
      if (hasComponent.get(file) === true) around.pagePathsInside.add(path);
    }
  }
  const files: RouteTypesFile[] = [];
  for (const [module, mounting] of mountings) {
    // Modules outside the project (a package's) get no types: nothing here may write beside them.
    if (!isInside(project, module)) continue;
    const name = basename(module, extname(module));
    const virtual = join(project, dirname(relative(project, module)), '+types', `${name}.ts`);
    const importPath = slashes(relative(dirname(virtual), module));
    files.push({
      file: join(project, ROUTE_TYPES_FOLDER, relative(project, virtual)),
      content: typesFileContent(table, slashes(relative(project, module)), importPath.startsWith('.') ? importPath : `./${importPath}`, mounting),
    });
  }
  return files;
}
