import { layout, route, type RouteTableEntry } from '../../../shared/api/route-definition.ts';
import * as notFound from './pages/missing.tsx';
import * as frame from './layouts/frame.tsx';
import * as plain from './pages/plain.tsx';

export const routes: readonly RouteTableEntry[] = [layout(frame, [route('/plain', plain)], { id: 'frame', notFound })];
