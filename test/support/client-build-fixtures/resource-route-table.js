// JavaScript, so that it needs no types: the build reads a table in either language.
import { route } from '../../../shared/api/route-definition.ts';
import * as plain from './pages/plain.tsx';
import * as resourceApi from './resource-api.ts';

/** A page and a resource route (a module without a default export). */
export const routes = [route('/plain', plain), route('/api/entries', resourceApi)];
