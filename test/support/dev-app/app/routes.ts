import { layout, route, type RouteTableEntry } from 'react-stream-shell';
import * as root from './layouts/root.tsx';
import * as counter from './pages/counter.tsx';

/** A small app the dev-loop tests copy and edit (test/browser/dev-refresh.test.ts, scripts/bench/dev-loop.ts). */
export const routes: readonly RouteTableEntry[] = [layout(root, [route('/', counter)], { id: 'root' })];
