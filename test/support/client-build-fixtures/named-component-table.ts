import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import * as namedComponent from './pages/named-component.tsx';

export const routes: readonly RouteDefinition[] = [
  // @ts-expect-error: the type check refuses a module whose component has no default export, as the build does (npm run build does not type-check)
  route('/named-component', namedComponent),
];
