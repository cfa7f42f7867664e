// @ts-nocheck: a page named by a package's specifier, which the build refuses
import { route, type RouteDefinition } from '../../../shared/api/route-definition.ts';
import * as page from 'react';

export const routes: readonly RouteDefinition[] = [route('/react', page)];
