import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import * as serverViaHelper from './pages/server-via-helper.tsx';

export const routes: readonly RouteDefinition[] = [route('/server-via-helper', serverViaHelper)];
