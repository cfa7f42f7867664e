/**
 * The benchmark's app-shaped page: a list of APP_LIST_ITEMS items inside the two bench layouts,
 * a fetcher button per item, and one deferred value that settles after APP_LIST_DEFERRED_MS, as
 * a real list page is. The `overload` figure drives it at 1,000 connections (overload.ts).
 */
export const APP_LIST_PATH = '/bench/app-list';
export const APP_LIST_ITEMS = 20;
export const APP_LIST_DEFERRED_MS = 300;
/** Text of the settled deferred value; the bench checks that the answer streamed it. */
export const APP_LIST_MARKER = 'APP-LIST-DEFERRED-SETTLED';

export interface AppListItem {
  readonly id: string;
  readonly title: string;
  readonly likes: number;
}

/** The page's items: a new array per request, as every `load` makes. */
export function appListItems(): readonly AppListItem[] {
  return Array.from({ length: APP_LIST_ITEMS }, (_, index) => ({ id: `item-${index + 1}`, title: `Item number ${index + 1}`, likes: index * 3 }));
}
