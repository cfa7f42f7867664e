import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import { routes as includedRoutes } from './included-table.ts';
import * as plain from './pages/plain.tsx';

// Stands for a table whose module does something when it runs: the build must never run it.
Reflect.set(globalThis, 'routeTableRan', true);

/** Routes in every place the build reads them: plain, inside a spread with a load of its own, from another table. */
export const routes: readonly RouteDefinition[] = [
  ...includedRoutes,
  route('/plain', plain),
  { ...route('/plain/loaded', plain), load: () => ({ loaded: true }) },
  { path: '/server-only', component: () => null },
];
