/**
 * A resource route (docs/responses.md): no component, so a redirect that ends here is loaded in
 * full by the browser, never fetched as a page's data. Its answer is a document of its own,
 * complete enough for the accessibility audit every browser test's pages go through.
 */
export function load(): Response {
  const html = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>A resource</title></head><body><main><h1>RESOURCE-LOADED-IN-FULL</h1></main></body></html>';
  return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}
