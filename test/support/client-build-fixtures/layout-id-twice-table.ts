import { layout, route, type RouteTableEntry } from '../../../shared/api/route-definition.ts';
import * as shell from '../fixture-pages/layouts/shell.tsx';
import * as other from './pages/other.tsx';
import * as plain from './pages/plain.tsx';

/** Two layouts with one id: the server would refuse it only as it starts. */
export const routes: readonly RouteTableEntry[] = [
  layout(shell, [route('/plain', plain), route('/plain/again', plain), route('/plain/once/more', plain)], { id: 'frame' }),
  layout(shell, [route('/other', other), route('/other/again', other), route('/other/once/more', other)], { id: 'frame' }),
];
