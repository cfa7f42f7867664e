import { layout, route, type RouteTableEntry } from '../../shared/api/route-definition.ts';
import * as appDetailPage from './app-detail-page.tsx';
import * as appListPage from './app-list-page.tsx';
import * as flatPage from './flat-page.tsx';
import * as rootLayout from './layout-root.tsx';
import * as sectionLayout from './layout-section.tsx';
import * as layoutsPage from './layouts-page.tsx';

/**
 * One page inside two layouts, and the same markup from one flat page: the bench's
 * `layouts-200` scenario puts them side by side. The app-shaped list page and its detail page
 * (app-list-fixture.ts) sit in the same two layouts. A table of its own, spread into
 * bench-routes.tsx, so a test can serve these two pages without the app's. The paths are
 * written out (the build reads this table without running it); layouts-fixture.ts names them too.
 */
export const layoutsRoutes: readonly RouteTableEntry[] = [
  layout(
    rootLayout,
    [layout(sectionLayout, [route('/bench/layouts', layoutsPage), route('/bench/app-list', appListPage), route('/bench/app-list/:id', appDetailPage)], { id: 'section' })],
    { id: 'site' },
  ),
  route('/bench/flat', flatPage),
];
