import { layout, route, type RouteTableEntry } from '../../../shared/api/route-definition.ts';
import * as shell from '../fixture-pages/layouts/shell.tsx';
import * as plain from './pages/plain.tsx';

/** A layout around no route: it frames nothing, and the pages beside it lose it unnoticed. */
export const routes: readonly RouteTableEntry[] = [layout(shell, [], { id: 'frame' }), route('/plain', plain)];
