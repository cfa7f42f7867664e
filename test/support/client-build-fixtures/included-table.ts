import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import * as other from './pages/other.tsx';

// Stands for a table whose module does something when it runs: the build must never run it.
Reflect.set(globalThis, 'includedRouteTableRan', true);

/** A table that another spreads into its own (as the bench's table spreads the app's). */
export const routes: readonly RouteDefinition[] = [route('/other', other)];
