import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import * as plain from './pages/plain.tsx';

/** A path the build would have to run the module to know. */
export const routes: readonly RouteDefinition[] = [route('/plain', plain), route(plain.PLAIN_PATH, plain)];
