import { layout, route, type RouteTableEntry } from '../../../shared/api/route-definition.ts';
import * as plain from './pages/plain.tsx';

const frame = { default: () => null };

export const routes: readonly RouteTableEntry[] = [route('/first', plain), layout(frame, [route('/plain', plain)], { id: 'frame' })];
