import { join } from 'node:path';
import express from 'express';
import { parseConfig } from '../../server/config.ts';
import { startServer } from '../../server/start-server.ts';
import { forbidden, notFound, unauthorized } from '../../shared/status-helpers.ts';
import { routes } from '../../shared/routes.ts';
import BoundaryThrowPage from './pages/boundary-throw.tsx';
import ClientThrowPage from './pages/client-throw.tsx';
import DelayedPage from './pages/delayed.tsx';

/**
 * The production server with fixture pages beside the product's, for the browser tests. It
 * starts exactly as main.ts does; settings come from the environment.
 */
const env = process.env;

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
  // docs/status-pages.md: the helpers work during the shell's render as well as in `load`.
  { path: '/fixtures/not-found-in-render', component: () => notFound() },
];

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

// The real entry's path, with the test's settings from the environment (PORT=0: a free port).
await startServer(parseConfig({ PORT: '0', HOST: '127.0.0.1', ...process.env }, { assetsDir: join(import.meta.dirname, '..', 'client') }), [...routes, ...fixtures], {
  wrap: (app) => {
    outer.use(app);
    return outer;
  },
});
