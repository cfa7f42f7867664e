import { route, type RouteDefinition } from '../shared/route-definition.ts';
import * as home from './pages/home.tsx';

/**
 * The app's pages. To add one: write `app/pages/<name>.tsx` (default export: the page component;
 * `load`, `action` and `head` beside it) and add `route('/path', name)` here. The build reads
 * this table without running it: keep it a list of `route()` calls on page modules imported
 * with `import * as` (docs/building-an-app.md).
 */
export const routes: readonly RouteDefinition[] = [route('/', home)];
