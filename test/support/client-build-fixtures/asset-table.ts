import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import * as withAssets from './pages/with-assets.tsx';

export const routes: readonly RouteDefinition[] = [route('/with-assets', withAssets)];
