import { join } from 'node:path';
import express from 'express';
import { parseConfig } from '../../server/config.ts';
import { loadClientAssets } from '../../server/render/client-assets.ts';
import { startServer } from '../../server/start-server.ts';
import type { RouteDefinition } from '../../shared/api/route-definition.ts';
import { routes as fixtureServerRoutes, notFoundTable } from './fixture-server-routes.tsx';

/**
 * The production server with the framework's fixture routes (never the app's), for the browser,
 * process and proxy tests. It starts through startServer as main.ts does, with its own app
 * declaration; settings come from the environment.
 *
 * Like dist/server/main.js, the bundle serves the client build in `client/` beside its own
 * folder, so where a global setup bundles it (fixture-server-build.ts) chooses the client:
 * dist/fixtures/server/ serves dist/fixtures/client/, dist/browser-fixtures/server/ the browser
 * tests' builds (production and development) of the same routes. A fixture page hydrates when
 * that build has it, and is rendered on the server only when it does not.
 */
const config = parseConfig({ PORT: '0', HOST: '127.0.0.1', ...process.env }, { assetsDir: join(import.meta.dirname, '..', 'client') });
const built = loadClientAssets(config.assetsDir).routes;

/** A fixture page hydrates when the client build served has it; otherwise the server renders it alone. */
function servedAsBuilt(route: RouteDefinition): RouteDefinition {
  if (route.page === undefined || built.has(route.path)) return route;
  const { page: _page, ...serverOnly } = route;
  return serverOnly;
}

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
await startServer(
  config,
  // With FIXTURE_NOT_FOUND=1, a layout's page stands for unknown addresses (fixture-server-routes.tsx);
  // with FIXTURE_STATUS_WORDS=1, the status pages speak the app's words, in English and French.
  {
    routes: [...fixtureServerRoutes.map(servedAsBuilt), ...(process.env.FIXTURE_NOT_FOUND === '1' ? notFoundTable : [])],
    statusPages: process.env.FIXTURE_STATUS_WORDS === '1' ? { messages: { en: { 404: 'Nothing to see at this address.' }, fr: { 404: 'Page introuvable.' } } } : undefined,
  },
  {
    wrap: (app) => {
      outer.use(app);
      return outer;
    },
  },
);
