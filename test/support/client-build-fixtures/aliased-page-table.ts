import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import * as plain from './pages/plain.tsx';

const page = plain;

/** A page module passed under another name than its `import * as` binding. */
export const routes: readonly RouteDefinition[] = [route('/plain', plain), route('/aliased', page)];
