import { layout, route, type RouteTableEntry } from '../../../shared/api/route-definition.ts';
import * as both from './pages/page-and-layout.tsx';
import * as plain from './pages/plain.tsx';

export const routes: readonly RouteTableEntry[] = [route('/both', both), layout(both, [route('/both/inner', plain)], { id: 'both' })];
