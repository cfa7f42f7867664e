import { join } from 'node:path';
import express from 'express';
import { createApp } from '../../server/app.ts';
import { loadClientAssets } from '../../server/client-assets.ts';
import { createHttpServer } from '../../server/http-server.ts';
import { createLogger } from '../../server/logger.ts';
import { forbidden, notFound, unauthorized } from '../../shared/status-helpers.ts';
import { routes } from '../../shared/routes.ts';
import BoundaryThrowPage from './pages/boundary-throw.tsx';
import ClientThrowPage from './pages/client-throw.tsx';
import DelayedPage from './pages/delayed.tsx';

/**
 * The production server with fixture pages beside the product's, for the browser tests.
 * Settings come from the environment, as in production; the log goes to stdout as JSON.
 */
const env = process.env;
/** `true` for the provider's default script path, a URL for another, unset for off. */
const flag = (name: string): boolean | string => {
  const value = env[name];
  if (value === undefined || value === '') return false;
  return value === 'true' ? true : value;
};

const fixtures = [
  { path: '/fixtures/delayed', component: DelayedPage, page: 'delayed', load: () => ({ delayMs: Number(env.FIXTURE_DELAY_MS ?? 400) }) },
  { path: '/fixtures/client-throw', component: ClientThrowPage, page: 'client-throw' },
  { path: '/fixtures/boundary-throw', component: BoundaryThrowPage, page: 'boundary-throw', load: () => ({ kind: 'boundary' as const }) },
  {
    path: '/fixtures/server-throw',
    component: () => null,
    load: () => {
      throw new Error('fixture: thrown on the server');
    },
  },
  { path: '/fixtures/unauthorized', component: () => null, load: () => unauthorized() },
  { path: '/fixtures/forbidden', component: () => null, load: () => forbidden() },
  { path: '/fixtures/not-found', component: () => null, load: () => notFound() },
];

const app = createApp({
  routes: [...routes, ...fixtures],
  logger: createLogger({ level: 'info' }),
  assets: loadClientAssets(join(import.meta.dirname, '..', 'client')),
  analytics: { pageViews: flag('ANALYTICS_PAGE_VIEWS'), speedInsights: flag('ANALYTICS_SPEED_INSIGHTS') },
  telemetry: { enabled: env.WEB_VITALS === 'on' },
});
/** Stand-ins for the hosting provider's scripts, served where the configuration points. */
const outer = express();
outer.disable('x-powered-by');
for (const [path, name] of [
  ['/_vercel/insights/script.js', 'insights'],
  ['/_vercel/speed-insights/script.js', 'speed-insights'],
] as const) {
  outer.get(path, (_req, res) => {
    res.type('text/javascript').send(`(window.analyticsRan = window.analyticsRan || []).push(${JSON.stringify(name)});`);
  });
}
outer.use(app);
const server = createHttpServer(outer);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address !== null && typeof address === 'object') process.stdout.write(`${JSON.stringify({ msg: 'listening', port: address.port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
