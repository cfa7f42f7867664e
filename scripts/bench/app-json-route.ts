import { appListItems } from './app-list-fixture.ts';

/**
 * `GET /bench/api/app-list`: the list page's items as JSON; a resource route (no default export)
 * returning its data, which the framework sends as JSON (docs/responses.md#data-from-a-resource-route).
 */
export function load(): { readonly items: ReturnType<typeof appListItems> } {
  return { items: appListItems() };
}
