import { defineApp } from '../server/app-definition.ts';
import { APP_NAME } from '../shared/app-info.ts';
import { routes } from './routes.ts';

/**
 * The app: what the framework serves (docs/building-an-app.md). The production entry,
 * `npm run dev`, the image and the fixture servers all start from this declaration.
 */
export default defineApp({
  routes,
  site: { name: APP_NAME },
});
