import { data, isDataWithResponseInit } from './answers.ts';
import type { HeadDefinition, LayoutDefinition, LayoutGroup, LoadContext, PageModule, PageRouteDefinition, RouteParams, RouteTableEntry } from './route-definition.ts';

/**
 * The path pattern of a layout's not-found page (`layout(…, { notFound })`): every address, after
 * every route of the table has had its turn. It is the page's `route` in logs and metrics, and
 * the key of its code in the client build's manifest.
 */
export const NOT_FOUND_PATH = '/{*path}';

function isLayoutGroup(entry: RouteTableEntry): entry is LayoutGroup {
  return 'children' in entry;
}

/** The not-found page answers 404 whatever its own `load` says: its data and headers stay. */
function notFoundLoad(own: PageModule['load']): (context: LoadContext) => Promise<unknown> {
  return async function loadNotFound(context) {
    const result = await own?.(context);
    return isDataWithResponseInit(result) ? data(result.data, { ...result.init, status: 404 }) : data(result, 404);
  };
}

/** A missing address is not indexed unless the page's head says otherwise. */
function unindexed(head: PageModule['head']): HeadDefinition {
  if (head === undefined) return { robots: 'noindex' };
  if (typeof head !== 'function') return { robots: 'noindex', ...head };
  return (pageData: unknown, params: RouteParams) => ({ robots: 'noindex', ...head(pageData, params) });
}

/** The layouts around each layout that names a not-found page, outermost first, with the page. */
function namedIn(table: readonly RouteTableEntry[], around: readonly LayoutDefinition[]): { readonly page: PageModule; readonly layouts: readonly LayoutDefinition[] }[] {
  return table.flatMap((entry) => {
    if (!isLayoutGroup(entry)) return [];
    const layouts = [...around, entry.layout];
    const own = entry.notFound === undefined ? [] : [{ page: entry.notFound, layouts }];
    return [...own, ...namedIn(entry.children, layouts)];
  });
}

/**
 * The route of the table's not-found page: the page module a layout names as `notFound`, shown
 * inside that layout (and those around it) with status 404 for a GET or HEAD of an address no
 * route has (docs/status-pages.md#a-404-inside-the-apps-layouts). One layout of a table names it,
 * as one not-found page stands for the whole site; `undefined` when none does.
 */
export function notFoundRoute(table: readonly RouteTableEntry[]): PageRouteDefinition | undefined {
  const named = namedIn(table, []);
  if (named.length > 1) {
    const ids = named.map(({ layouts }) => `"${layouts.at(-1)?.id}"`).join(' and ');
    throw new Error(`Layouts ${ids} both name a notFound page: one layout of the table names it, and it shows for every address no route has`);
  }
  const [only] = named;
  if (only === undefined) return undefined;
  const { default: component, head, ErrorBoundary, errorHead } = only.page;
  return {
    path: NOT_FOUND_PATH,
    component,
    page: only.page,
    load: notFoundLoad(only.page.load),
    head: unindexed(head),
    layouts: only.layouts,
    ...(ErrorBoundary === undefined ? {} : { ErrorBoundary }),
    ...(errorHead === undefined ? {} : { errorHead }),
  };
}
