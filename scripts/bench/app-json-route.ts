import { appListItems } from './app-list-fixture.ts';

/** `GET /bench/api/app-list`: the list page's items as JSON; a resource route (no default export). */
export function load(): Response {
  return Response.json({ items: appListItems() });
}
