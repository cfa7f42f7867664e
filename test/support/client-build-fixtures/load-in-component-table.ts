import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import * as loadInComponent from './pages/load-in-component.tsx';

export const routes: readonly RouteDefinition[] = [route('/load-in-component', loadInComponent)];
