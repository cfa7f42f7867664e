import * as home from './pages/home.tsx';
import { route, type RouteDefinition } from './route-definition.ts';

/**
 * The product's pages. To add one: write `shared/pages/<name>.tsx` (default export: the page
 * component; `load` and `head` beside it) and add `route('/path', page)` here. The build
 * bundles every page module this table names (docs/building-pages.md).
 */
export const routes: readonly RouteDefinition[] = [route('/', home)];
