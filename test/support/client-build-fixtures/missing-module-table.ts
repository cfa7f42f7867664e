import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import * as missingModule from './pages/missing-module.tsx';

export const routes: readonly RouteDefinition[] = [route('/missing-module', missingModule)];
