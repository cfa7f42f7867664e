import { shared } from './shared.ts';

export const again = shared();
