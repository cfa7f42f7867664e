/**
 * The benchmark's app-shaped pages: a list of APP_LIST_ITEMS items inside the two bench layouts,
 * a fetcher button per item, one deferred value that settles after APP_LIST_DEFERRED_MS and the
 * signed-in visitor read from the session, as a real list page is; each item's detail page, with
 * a head from its data; and the items as JSON from a resource route. The `app-list`,
 * `app-detail` and `app-json` scenarios measure them (scenarios.ts); the `overload` figure drives
 * the list at 1,000 connections (overload.ts).
 */
export const APP_LIST_PATH = '/bench/app-list';
export const APP_LIST_ITEMS = 20;
export const APP_LIST_DEFERRED_MS = 300;
/** Text of the settled deferred value; the bench checks that the answer streamed it. */
export const APP_LIST_MARKER = 'APP-LIST-DEFERRED-SETTLED';
/** The resource route with the same items as JSON. */
export const APP_JSON_PATH = '/bench/api/app-list';
/** The detail page's route pattern (layouts-routes.tsx writes it out), under which the client build lists its modules. */
export const APP_DETAIL_ROUTE = '/bench/app-list/:id';
/** The detail page the bench asks for. */
export const APP_DETAIL_ID = 'item-7';
/** Who the load generator's session cookie says is signed in; the pages show the name, so the bench sees the session read. */
export const APP_VISITOR_NAME = 'Bench Visitor';

export interface AppListItem {
  readonly id: string;
  readonly title: string;
  readonly likes: number;
}

/** Where an item's detail page is. */
export function appDetailPath(id: string): string {
  return `${APP_LIST_PATH}/${id}`;
}

/** The page's items: a new array per request, as every `load` makes. */
export function appListItems(): readonly AppListItem[] {
  return Array.from({ length: APP_LIST_ITEMS }, (_, index) => ({ id: `item-${index + 1}`, title: `Item number ${index + 1}`, likes: index * 3 }));
}

/** One item, as the detail page's `load` finds it; undefined for an id the list does not have. */
export function appListItem(id: string): AppListItem | undefined {
  return appListItems().find((item) => item.id === id);
}

/** The visitor line both pages show: the name from the session, or that nobody signed in. */
export function visitorLine(name: string | null): string {
  return name === null ? 'Not signed in' : `Signed in as ${name}`;
}
