// A first load whose lazily loaded module imports a module of the first load too.
import { shared } from './shared.ts';

export const first = shared();
export const later = () => import('./later-sharing.ts');
