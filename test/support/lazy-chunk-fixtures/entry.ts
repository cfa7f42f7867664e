// A page's first load: a CommonJS module (so esbuild needs its helpers) and a lazily loaded module.
import counter from './counter.cjs';
import { shared } from './shared.ts';

export const first = counter.count + shared();
export const later = () => import('./later-alone.ts');
