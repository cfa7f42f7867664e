import { defineApp } from 'react-stream-shell/server';
import { routes } from './routes.ts';

/** The app: what the framework serves. `npm start`, `npm run dev`, the image and the tests all start from it. */
export default defineApp({
  routes,
  site: { name: 'My app', description: 'A React app streamed from Node.' },
});
