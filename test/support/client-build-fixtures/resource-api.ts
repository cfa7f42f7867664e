import { readEntries } from './lib/guestbook.server.ts';

/** A resource route's module: no default export, so no component and nothing for the browser. */
export function load(): Response {
  return Response.json(readEntries());
}
