import { layout, route, type RouteTableEntry } from '../../../shared/api/route-definition.ts';
import * as missing from './pages/missing.tsx';
import * as frame from './layouts/frame.tsx';
import * as plain from './pages/plain.tsx';
import * as other from './pages/other.tsx';

export const routes: readonly RouteTableEntry[] = [
  layout(frame, [route('/plain', plain)], { id: 'one', notFound: missing }),
  layout(frame, [route('/other', other)], { id: 'two', notFound: missing }),
];
