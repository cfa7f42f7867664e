import type { Route } from './+types/file.ts';

/** A resource route at `/files/*path`: the wildcard's segments, joined by `/`. */
export function load({ params }: Route.LoadContext): Response {
  return Response.json({ path: params.path });
}
