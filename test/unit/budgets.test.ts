import { existsSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { pageDataOf } from '../support/page-data-scripts.ts';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  FIRST_LOAD_ALLOWANCE_BYTES,
  FULL_PAGE_ALLOWANCE_BYTES,
  firstLoadJavaScript,
  firstLoadOfRoute,
  firstLoadWithoutNavigation,
  NAVIGATION_ALLOWANCE_BYTES,
  scriptUrlsInHtml,
  smallestHydratingBundle,
  type JavaScriptWeight,
} from '../../scripts/lib/first-load-js.ts';
import { firstLoadUrls } from '../../scripts/lib/manifest-urls.ts';
import { APP_LIST_PATH } from '../../scripts/bench/app-list-fixture.ts';
import { loadClientAssets, MANIFEST_FILE } from '../../server/render/client-assets.ts';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { forbidden, notFound, unauthorized } from '../../shared/api/status-helpers.ts';
import { buildApp } from '../support/build-app.ts';
import { FIXTURE_CLIENT_DIR, FIXTURE_ROUTES_MODULE } from '../support/fixture-server-build.ts';
import { routes } from '../support/fixture-server-routes.tsx';

/**
 * The budgets that do not depend on timing, on the framework's own home page (a fixture, never
 * the app's): what `/` makes the browser download, next to the least any hydrating page must,
 * and no script at all on status pages. Reads the fixture client build that the unit tests'
 * global setup writes.
 */
const CLIENT_DIR = FIXTURE_CLIENT_DIR;

function Nothing() {
  return null;
}

const statusRoutes = [
  defineRoute({ path: '/budget/not-found', component: Nothing, load: () => notFound() }),
  defineRoute({ path: '/budget/unauthorized', component: Nothing, load: () => unauthorized() }),
  defineRoute({ path: '/budget/forbidden', component: Nothing, load: () => forbidden() }),
  defineRoute({
    path: '/budget/server-error',
    component: Nothing,
    load: () => {
      throw new Error('budget test: expected failure');
    },
  }),
];

describe('first-load JavaScript of an app-shaped page', () => {
  // The bench's list page: 20 items inside two layouts, a fetcher form per item, a deferred value
  // in Suspense, a session read (scripts/bench/app-list-page.tsx), built as npm run build builds it.
  test(`ships at most ${FULL_PAGE_ALLOWANCE_BYTES} gzip bytes beyond the smallest hydrating bundle, the page's own code included`, async () => {
    const [page, smallest] = await Promise.all([
      firstLoadOfRoute(join(import.meta.dirname, '..', '..', 'scripts', 'bench', 'bench-routes.tsx'), APP_LIST_PATH),
      smallestHydratingBundle(),
    ]);
    const modules = [...page.modules.keys()];
    // It is the page it means to be: its layouts, the fetcher's hook and the router's start are in it.
    for (const part of ['scripts/bench/layout-root.tsx', 'scripts/bench/layout-section.tsx', 'shared/api/fetcher.tsx', 'client/router.tsx', 'client/router/history-entry.ts'])
      expect(modules).toContain(part);
    // The navigation runtime is built, as a chunk of its own that the router's start imports
    // on a first intent (client/router.tsx), and so is telemetry (client/page-telemetry.ts: web
    // vitals and error reports, fetched only with telemetry on): none of their modules is in the first load.
    const later = page.later.flatMap((chunk) => chunk.modules);
    for (const part of ['client/router/create-router.ts', 'client/page-telemetry.ts', 'client/client-error-report.ts', 'client/send-beacon.ts']) expect(later).toContain(part);
    for (const part of later) expect(modules).not.toContain(part);
    expect(page.weight.gzipBytes - smallest.gzipBytes).toBeLessThanOrEqual(FULL_PAGE_ALLOWANCE_BYTES);
  });
});

describe('first-load JavaScript of /', () => {
  let home: JavaScriptWeight;
  let withoutNavigation: JavaScriptWeight;
  let smallest: JavaScriptWeight;

  beforeAll(async () => {
    if (!existsSync(join(CLIENT_DIR, MANIFEST_FILE))) throw new Error(`${CLIENT_DIR}/${MANIFEST_FILE} is missing: run npm run build first`);
    [home, withoutNavigation, smallest] = await Promise.all([
      firstLoadJavaScript(CLIENT_DIR, '/'),
      firstLoadWithoutNavigation(FIXTURE_ROUTES_MODULE, '/'),
      smallestHydratingBundle(),
    ]);
  });

  test(`stays within ${FIRST_LOAD_ALLOWANCE_BYTES} gzip bytes of the smallest hydrating bundle without navigation`, () => {
    expect(smallest.gzipBytes).toBeGreaterThan(0);
    expect(withoutNavigation.gzipBytes - smallest.gzipBytes).toBeLessThanOrEqual(FIRST_LOAD_ALLOWANCE_BYTES);
  });

  test(`gives navigation, links, forms, layouts, error boundaries and fetchers at most ${NAVIGATION_ALLOWANCE_BYTES} gzip bytes more`, () => {
    const navigation = home.gzipBytes - withoutNavigation.gzipBytes;
    // Positive: the stand-ins really left the runtime out, so the difference measures it.
    expect(navigation).toBeGreaterThan(500);
    expect(navigation).toBeLessThanOrEqual(NAVIGATION_ALLOWANCE_BYTES);
  });

  test(`holds on a page that uses them all, fetchers' hook included (the layouts' guest list): at most ${NAVIGATION_ALLOWANCE_BYTES} gzip bytes`, async () => {
    const [page, pageWithout] = await Promise.all([firstLoadJavaScript(CLIENT_DIR, '/layouts/guests'), firstLoadWithoutNavigation(FIXTURE_ROUTES_MODULE, '/layouts/guests')]);
    const features = page.gzipBytes - pageWithout.gzipBytes;
    // More than the home's: the page calls useFetcher(), whose hook the home does not ship.
    expect(features).toBeGreaterThan(home.gzipBytes - withoutNavigation.gzipBytes);
    expect(features).toBeLessThanOrEqual(NAVIGATION_ALLOWANCE_BYTES);
  });

  test('is exactly what the served page references, so the budget measures what ships', async () => {
    const { app } = buildApp(routes, { assets: loadClientAssets(CLIENT_DIR) });
    const res = await request(app).get('/').expect(200);
    // The route table's module (route-table-module.ts) is named in the page data, for the
    // navigation runtime to fetch on a first intent; the loader starts the page's code alone.
    const table = Reflect.get(Object(pageDataOf(res.text)), 'navigation');
    expect(table).toMatch(/^\/assets\/routes-[0-9a-f]{12}\.js$/);
    const served = scriptUrlsInHtml(res.text);
    expect(served).not.toContain(table);
    expect(new Set(served)).toEqual(new Set(await firstLoadUrls(CLIENT_DIR, '/')));
  });
});

describe('status pages', () => {
  const { app } = buildApp([...routes, ...statusRoutes], { assets: loadClientAssets(CLIENT_DIR) });

  test.each([
    ['404 for an unknown address', 'get', '/no/such/page', 404],
    ['404 from notFound()', 'get', '/budget/not-found', 404],
    ['401 from unauthorized()', 'get', '/budget/unauthorized', 401],
    ['403 from forbidden()', 'get', '/budget/forbidden', 403],
    ['405 for POST on a page', 'post', '/', 405],
    ['400 for undecodable percent-encoding', 'get', '/%E0%A4%A', 400],
    ['500 for an exception', 'get', '/budget/server-error', 500],
  ] as const)('reference no script: %s', async (_name, method, path, status) => {
    const res = await request(app)[method](path).set('Accept', 'text/html');
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<!DOCTYPE html>');
    expect(res.text).not.toContain('<script');
    expect(res.text).not.toContain('modulepreload');
  });
});
