import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import * as reactRouterNames from './pages/react-router-names.tsx';

export const routes: readonly RouteDefinition[] = [route('/react-router-names', reactRouterNames)];
