import { layout, route, type RouteTableEntry } from '../../../shared/api/route-definition.ts';
import * as plain from './pages/plain.tsx';

/** A child path written as React Router writes nested paths, relative to its layout: Express would never match it. */
export const routes: readonly RouteTableEntry[] = [layout(plain, [route('products', plain)], { id: 'shop' })];
