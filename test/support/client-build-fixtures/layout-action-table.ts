import { layout, route, type RouteTableEntry } from '../../../shared/api/route-definition.ts';
import * as withAction from './layouts/with-action.tsx';
import * as plain from './pages/plain.tsx';

export const routes: readonly RouteTableEntry[] = [layout(withAction, [route('/plain', plain)], { id: 'with-action' })];
