import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import * as serverInComponent from './pages/server-in-component.tsx';

export const routes: readonly RouteDefinition[] = [route('/server-in-component', serverInComponent)];
