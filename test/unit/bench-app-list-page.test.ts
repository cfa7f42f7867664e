import request from 'supertest';
import { describe, expect, test } from 'vitest';
import {
  APP_DETAIL_ID,
  APP_JSON_PATH,
  APP_LIST_ITEMS,
  APP_LIST_MARKER,
  APP_LIST_PATH,
  APP_VISITOR_NAME,
  appDetailPath,
  appListItems,
  visitorLine,
} from '../../scripts/bench/app-list-fixture.ts';
import * as appJsonRoute from '../../scripts/bench/app-json-route.ts';
import { appVisitorCookie } from '../../scripts/bench/app-visitor-session.ts';
import { layoutsRoutes } from '../../scripts/bench/layouts-routes.tsx';
import { LAYOUTS_MARKER, SECTION_MARKER } from '../../scripts/bench/layouts-fixture.ts';
import { createCookieSessionStorage } from '../../server/sessions/cookie-session.ts';
import { route } from '../../shared/api/route-definition.ts';
import { asHydrating, buildApp, errorLines } from '../support/build-app.ts';

/**
 * The `app-list`, `app-detail` and `app-json` scenarios and the overload figure stand for an
 * app's pages only if the bench's pages are ones: the list inside the two layouts, a fetcher form
 * per item, a deferred value streamed after the shell, the visitor from a signed session cookie;
 * the detail page's head from its data; the items as JSON.
 */
describe('the bench’s app-shaped pages', () => {
  const { routes, assets } = asHydrating([...layoutsRoutes, route('/bench/api/app-list', appJsonRoute)]);
  const { app, logs } = buildApp(routes, { assets });

  test('the list renders its items inside both layouts, a fetcher form each, the visitor from the session, and the settled deferred value', async () => {
    const res = await request(app)
      .get(APP_LIST_PATH)
      .set('Cookie', await appVisitorCookie());
    expect(res.status).toBe(200);
    expect(res.text).toContain(SECTION_MARKER);
    expect(res.text).not.toContain(LAYOUTS_MARKER);
    expect(res.text.match(new RegExp(`<form[^>]*action="${APP_LIST_PATH}"`, 'g'))).toHaveLength(APP_LIST_ITEMS);
    expect(res.text).toContain(`<p>${visitorLine(APP_VISITOR_NAME)}</p>`);
    expect(res.text).toContain(APP_LIST_MARKER);
    // The shell carries the fallback; the value follows it.
    expect(res.text).toContain('Loading…');
    expect(res.text.indexOf(APP_LIST_MARKER)).toBeGreaterThan(res.text.indexOf('Loading…'));
    expect(errorLines(logs)).toEqual([]);
  });

  test('a session cookie signed with another secret, or none, is nobody signed in', async () => {
    const elsewhere = createCookieSessionStorage({ cookie: { name: '__bench_session', secrets: ['another-secret-entirely-of-32-characters-or-more'] } });
    const session = await elsewhere.getSession(null);
    session.set('visitor', { name: 'Mallory' });
    const forged = (await elsewhere.commitSession(session)).split(';', 1)[0] ?? '';
    for (const cookie of [forged, '']) {
      const res = await request(app).get(APP_LIST_PATH).set('Cookie', cookie);
      expect(res.status).toBe(200);
      expect(res.text).toContain(`<p>${visitorLine(null)}</p>`);
      expect(res.text).not.toContain('Mallory');
    }
  });

  test('the detail page takes its head from its data, inside both layouts; an id the list does not have is a 404', async () => {
    const res = await request(app)
      .get(appDetailPath(APP_DETAIL_ID))
      .set('Cookie', await appVisitorCookie());
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>Item number 7');
    expect(res.text).toContain('<meta name="description" content="Item number 7, liked 18 times."/>');
    expect(res.text).toContain(SECTION_MARKER);
    expect(res.text).toContain(`<p>${visitorLine(APP_VISITOR_NAME)}</p>`);
    const missing = await request(app).get(appDetailPath('item-999'));
    expect(missing.status).toBe(404);
    expect(errorLines(logs)).toEqual([]);
  });

  test('the JSON route answers the list’s items', async () => {
    const res = await request(app)
      .get(APP_JSON_PATH)
      .set('Cookie', await appVisitorCookie());
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ items: appListItems() });
  });
});
