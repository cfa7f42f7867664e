import { route, type RouteTableEntry } from '../../shared/api/route-definition.ts';
import { routes as productRoutes } from '../../app/routes.ts';
import * as appJsonRoute from './app-json-route.ts';
import * as deferredPage from './deferred-page.tsx';
import { layoutsRoutes } from './layouts-routes.tsx';
import * as manyDeferredPage from './many-deferred-page.tsx';
import * as suspensePage from './suspense-page.tsx';

/**
 * The product's routes plus the benchmark's pages. The fixture build swaps this in for
 * `app/routes.ts` (see build-bench.ts), so the product's table stays free of bench pages. All
 * are page modules, so the fixture build's client bundles them and they hydrate: each response
 * carries the page's data script, and the deferred pages also the settled values.
 */
export const routes: readonly RouteTableEntry[] = [
  ...productRoutes,
  // The paths are written out (the build reads this table without running it); suspense-fixture.ts names them too.
  route('/bench/suspense', suspensePage),
  route('/bench/deferred', deferredPage),
  route('/bench/many-deferred', manyDeferredPage),
  ...layoutsRoutes,
  route('/bench/api/app-list', appJsonRoute),
];
