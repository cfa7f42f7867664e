import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import * as alpha from './alpha.tsx';
import * as beta from './beta.tsx';

/** Two hydrating routes of one page and one of another, and a server-only route. */
export const routes: readonly RouteDefinition[] = [route('/alpha', alpha), route('/alpha/again', alpha), route('/beta', beta), { path: '/server-only', component: () => null }];
