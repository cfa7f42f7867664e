import { defineApp } from '../../server/app-definition.ts';
import { routes } from './fixture-server-routes.tsx';

/**
 * The framework's fixture routes declared as an app: the product entry (server/main.ts) is
 * bundled around this for the framework's tests (fixture-server-build.ts), so they start the
 * real entry without depending on the app's routes, settings or secrets.
 */
export default defineApp({ routes });
