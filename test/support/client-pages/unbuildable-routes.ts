import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';

/** A route whose page is no module of the project: the build must refuse it, naming the route. */
export const routes: readonly RouteDefinition[] = [route('/inline', { default: () => null })];
