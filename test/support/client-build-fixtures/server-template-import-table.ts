import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import * as serverTemplateImport from './pages/server-template-import.tsx';

export const routes: readonly RouteDefinition[] = [route('/server-template-import/:name', serverTemplateImport)];
