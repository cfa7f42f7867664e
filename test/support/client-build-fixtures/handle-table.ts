import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import * as handle from './pages/handle.tsx';

export const routes: readonly RouteDefinition[] = [route('/handle', handle)];
