import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import * as pageOnlyLayoutNames from './pages/page-only-layout-names.tsx';

export const routes: readonly RouteDefinition[] = [route('/page-should-revalidate', pageOnlyLayoutNames)];
