import { frameworkModule, type DevModules } from '../build-client.ts';
import { refreshFinisher } from './refresh-transform.ts';

/**
 * What the dev command's client build adds for Fast Refresh in the app of `project`: the page's
 * hot registry imported first by every page's entry, and the refresh transform on the app's modules.
 * `npm run build` never passes it (test/unit/dev-code-stays-out.test.tsx holds that).
 */
export function devModules(project: string): DevModules {
  return { first: frameworkModule('client', 'dev', 'hot-registry.ts'), finish: refreshFinisher(project) };
}
