import HomePage from './pages/home.tsx';
import type { RouteDefinition } from './route-definition.ts';

/**
 * The product's pages. To add one: write `shared/pages/<name>.tsx` (default export: the page
 * component) and add an entry here with `page: '<name>'` so its client bundle hydrates it.
 */
export const routes: readonly RouteDefinition[] = [
  { path: '/', title: 'Home', component: HomePage, page: 'home' },
];
