import { defineRoute, type RouteDefinition } from '../../shared/route-definition.ts';
import { routes as productRoutes } from '../../shared/routes.ts';
import { SUSPENSE_DELAY_MS, SUSPENSE_PATH } from './suspense-fixture.ts';
import { SuspensePage, type SuspenseData } from './suspense-page.tsx';

/**
 * The product's routes plus the benchmark's streaming page. The fixture build swaps this in for
 * `shared/routes.ts` (see build-bench.ts), so the product's table stays free of bench pages.
 * No `page`: the fixture is server-rendered only and ships no JavaScript.
 */
export const routes: readonly RouteDefinition[] = [
  ...productRoutes,
  defineRoute<SuspenseData>({
    path: SUSPENSE_PATH,
    head: { title: 'Streaming' },
    component: SuspensePage,
    load: () => ({ delayMs: SUSPENSE_DELAY_MS }),
  }),
];
