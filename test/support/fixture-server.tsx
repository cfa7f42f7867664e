import { join } from 'node:path';
import express from 'express';
import { parseConfig } from '../../server/config.ts';
import { loadClientAssets } from '../../server/render/client-assets.ts';
import { startServer } from '../../server/start-server.ts';
import { defineRoute, type RouteDefinition } from '../../shared/route-definition.ts';
import { routes } from '../../shared/routes.ts';
import { forbidden, notFound, unauthorized } from '../../shared/status-helpers.ts';
import BoundaryThrowPage from '../browser/pages/boundary-throw.tsx';
import ClientThrowPage from '../browser/pages/client-throw.tsx';
import DelayedPage from '../browser/pages/delayed.tsx';
import { loadSlowData, SlowPage } from './slow-page.tsx';

/**
 * The production server with fixture routes beside the product's, for the browser, process and
 * proxy tests. It starts exactly as main.ts does; settings come from the environment.
 *
 * Like dist/server/main.js, the bundle serves the client build in `client/` beside its own
 * folder, so where a global setup bundles it (fixture-server-build.ts) chooses the client:
 * dist/fixtures/ serves the product's dist/client/, dist/browser-fixtures/server/ the build of
 * test/browser/pages/. A fixture page hydrates when that build has it, and is rendered on the
 * server only when it does not.
 */
const config = parseConfig({ PORT: '0', HOST: '127.0.0.1', ...process.env }, { assetsDir: join(import.meta.dirname, '..', 'client') });
const builtPages = loadClientAssets(config.assetsDir).pages;

function hydratedBy(page: string): { readonly page?: string } {
  return builtPages.has(page) ? { page } : {};
}

function throwOnServer(): never {
  throw new Error('fixture: thrown on the server');
}

const fixtures: readonly RouteDefinition[] = [
  // The browser tests' pages, with client bundles under test/browser/pages/.
  { path: '/fixtures/delayed', component: DelayedPage, ...hydratedBy('delayed'), load: () => ({ delayMs: Number(process.env.FIXTURE_DELAY_MS ?? 400) }) },
  { path: '/fixtures/client-throw', component: ClientThrowPage, ...hydratedBy('client-throw') },
  { path: '/fixtures/boundary-throw', component: BoundaryThrowPage, ...hydratedBy('boundary-throw'), load: () => ({ kind: 'boundary' as const }) },
  // A load that throws: the 500 page. The proxy tests' address (the page names the host, which
  // shows whose forwarded headers were believed) and the browser tests' address.
  { path: '/fixtures/throw', component: () => null, load: throwOnServer },
  { path: '/fixtures/server-throw', component: () => null, load: throwOnServer },
  { path: '/fixtures/unauthorized', component: () => null, load: () => unauthorized() },
  { path: '/fixtures/forbidden', component: () => null, load: () => forbidden() },
  // docs/status-pages.md: the helpers work during the shell's render as well as in `load`.
  { path: '/fixtures/not-found-in-render', component: () => notFound() },
  // Server-only (no client bundle): the shell at once, the boundary after `?ms=`.
  defineRoute({ path: '/fixtures/slow', title: 'Slow', component: SlowPage, load: loadSlowData }),
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
await startServer(config, [...routes, ...fixtures], {
  wrap: (app) => {
    outer.use(app);
    return outer;
  },
});
