import { layout, route, type RouteTableEntry } from 'react-stream-shell';
import * as hello from './api/hello.ts';
import * as root from './layouts/root.tsx';
import * as home from './pages/home.tsx';

/** The app's pages, inside their layouts. A module without a default export is a resource route. */
export const routes: readonly RouteTableEntry[] = [layout(root, [route('/', home)], { id: 'root' }), route('/api/hello', hello)];
