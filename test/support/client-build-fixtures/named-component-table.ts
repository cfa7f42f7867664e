import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import * as namedComponent from './pages/named-component.tsx';

export const routes: readonly RouteDefinition[] = [
  // The type check takes it: without a default export it is a resource route, whose load may return data (sent as JSON). The build refuses it for its component exported by name.
  route('/named-component', namedComponent),
];
