import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { FLAT_PATH, LAYOUTS_MARKER, LAYOUTS_PATH, SECTION_MARKER } from '../../scripts/bench/layouts-fixture.ts';
import { layoutsRoutes } from '../../scripts/bench/layouts-routes.tsx';
import { asHydrating, buildApp, errorLines } from '../support/build-app.ts';

/** What the page renders into `#root`, the data script that follows it left out. */
function rootMarkup(html: string): string {
  const start = html.indexOf('<div id="root">');
  const end = html.indexOf('<script', start);
  if (start === -1 || end === -1) throw new Error('no #root followed by a script in the document');
  return html.slice(start, end);
}

/**
 * The bench's `layouts-200` ratio says what layouts cost only if its two pages differ in
 * nothing else: the same markup, one through two layouts and three loads, one flat with one.
 */
describe('the bench pages with and without layouts', () => {
  const { routes, assets } = asHydrating(layoutsRoutes);
  const { app, logs } = buildApp(routes, { assets });

  test('render the same markup, the one inside its layouts', async () => {
    const [inLayouts, flat] = await Promise.all([request(app).get(LAYOUTS_PATH), request(app).get(FLAT_PATH)]);
    expect(inLayouts.status).toBe(200);
    expect(flat.status).toBe(200);
    const markup = rootMarkup(inLayouts.text);
    expect(markup).toContain(LAYOUTS_MARKER);
    expect(markup).toContain(SECTION_MARKER);
    expect(rootMarkup(flat.text)).toBe(markup);
    expect(errorLines(logs)).toEqual([]);
  });

  test('carry the data of two layouts on one page and of none on the other', async () => {
    const [inLayouts, flat] = await Promise.all([request(app).get(LAYOUTS_PATH), request(app).get(FLAT_PATH)]);
    // The page data names each layout with its data (prepare-page.ts); a flat page has none.
    expect(inLayouts.text).toContain('id:"site"');
    expect(inLayouts.text).toContain('id:"section"');
    expect(flat.text).not.toContain('id:"site"');
    expect(flat.text).toContain(`title:"${SECTION_MARKER}"`);
  });
});
