import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { APP_LIST_ITEMS, APP_LIST_MARKER, APP_LIST_PATH } from '../../scripts/bench/app-list-fixture.ts';
import { layoutsRoutes } from '../../scripts/bench/layouts-routes.tsx';
import { LAYOUTS_MARKER, SECTION_MARKER } from '../../scripts/bench/layouts-fixture.ts';
import { asHydrating, buildApp, errorLines } from '../support/build-app.ts';

/**
 * The overload figure stands for an app's list page only if the bench page is one: inside the
 * two layouts, a fetcher form per item, and a deferred value streamed after the shell.
 */
describe('the bench’s app-shaped list page', () => {
  const { routes, assets } = asHydrating(layoutsRoutes);
  const { app, logs } = buildApp(routes, { assets });

  test('renders its items inside both layouts, a fetcher form each, and the settled deferred value', async () => {
    const res = await request(app).get(APP_LIST_PATH);
    expect(res.status).toBe(200);
    expect(res.text).toContain(SECTION_MARKER);
    expect(res.text).not.toContain(LAYOUTS_MARKER);
    expect(res.text.match(new RegExp(`<form[^>]*action="${APP_LIST_PATH}"`, 'g'))).toHaveLength(APP_LIST_ITEMS);
    expect(res.text).toContain(APP_LIST_MARKER);
    // The shell carries the fallback; the value follows it.
    expect(res.text).toContain('Loading…');
    expect(res.text.indexOf(APP_LIST_MARKER)).toBeGreaterThan(res.text.indexOf('Loading…'));
    expect(errorLines(logs)).toEqual([]);
  });
});
