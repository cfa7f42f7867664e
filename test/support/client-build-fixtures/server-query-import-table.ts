import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import * as serverQueryImport from './pages/server-query-import.tsx';

export const routes: readonly RouteDefinition[] = [route('/server-query-import', serverQueryImport)];
