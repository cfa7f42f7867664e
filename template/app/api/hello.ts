/** A resource route: no component, so its load answers with a Response of its own. */
export function load() {
  return Response.json({ hello: 'world' });
}
