import { route, type RouteTableEntry } from '../../../shared/api/route-definition.ts';
import * as plain from './pages/plain.tsx';

/** An Express 4 and React Router spelling Express 5 does not read: an optional parameter. */
export const routes: readonly RouteTableEntry[] = [route('/plain', plain), route('/tabs/:tab?', plain)];
