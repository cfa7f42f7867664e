import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import * as serverDynamicImport from './pages/server-dynamic-import.tsx';

export const routes: readonly RouteDefinition[] = [route('/server-dynamic-import', serverDynamicImport)];
