import type { Express } from 'express';
import { createApp, type AppOptions } from '../../server/app.ts';
import type { ResolvedApp } from '../../server/app-definition.ts';
import { createCapturingLogger, type TestLogLine } from '../../server/testing/test-app.ts';
import type { ClientAssets } from '../../server/render/client-assets.ts';
import { flattenRoutes, isResourceRoute, type RouteDefinition, type RouteTableEntry } from '../../shared/api/route-definition.ts';

/** One parsed pino line. */
export type LogLine = TestLogLine;

export const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const;

export interface TestApp {
  readonly app: Express;
  /** Every line the app logged, parsed, in order. */
  readonly logs: LogLine[];
}

/**
 * The form-token secret of every test app, as `CSRF_SECRET` is to a server: an app with actions
 * needs one, and a test that builds from a table with actions should not have to know that.
 */
export const TEST_FORMS = { secret: 'test-app-form-token-secret-of-32-chars-or-more' } as const;

/** The app's hooks (as `resolveApp` gives them) and the framework's options, side by side. */
export type BuildAppOptions = Partial<Omit<AppOptions, 'app' | 'logger'>> & Partial<Omit<ResolvedApp, 'routes' | 'logger'>>;

/**
 * An app with its own pages and a logger that writes parsed lines to an array, through the
 * product's real logger (redaction included).
 */
export function buildApp(routes: readonly RouteTableEntry[], options: BuildAppOptions = {}): TestApp {
  const { logger, logs } = createCapturingLogger();
  const { getLoadContext, site, middleware, statusPages, ...rest } = options;
  return { app: createApp({ app: { routes, getLoadContext, site, middleware, statusPages }, logger, forms: TEST_FORMS, ...rest }), logs };
}

export function errorLines(logs: readonly LogLine[]): LogLine[] {
  return logs.filter((line) => line.level >= LEVEL.error);
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves once `predicate` holds, polling; rejects after `timeoutMs`, naming `what`. */
export async function waitFor(predicate: () => boolean, timeoutMs = 2_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await delay(5);
  }
}

/**
 * Routes that hydrate as far as the server can tell, without a client build: each gets a page
 * module and an entry script in a stand-in manifest, so the page carries its data scripts.
 */
export function asHydrating(table: readonly RouteTableEntry[], script = '/assets/fixture.js'): { routes: RouteDefinition[]; assets: ClientAssets } {
  const routes = flattenRoutes(table);
  return {
    routes: routes.map((route) => (isResourceRoute(route) ? route : { ...route, page: { default: route.component } })),
    assets: { dir: '/nonexistent', routes: new Map(routes.map((route) => [route.path, { script, preloads: [], styles: [] }])), inlineStyles: new Map() },
  };
}
