import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import * as guestbook from './pages/guestbook.tsx';
import * as sign from './pages/sign.tsx';
import * as titled from './pages/titled.tsx';

/** Pages whose load, action and head use code that must stay on the server. */
export const routes: readonly RouteDefinition[] = [route('/guestbook', guestbook), route('/sign', sign), route('/titled', titled)];
