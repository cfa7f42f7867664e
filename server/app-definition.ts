import type { Router } from 'express';
import type { SiteHead } from '../shared/api/head.ts';
import type { AppLoadContext, RouteTableEntry } from '../shared/api/route-definition.ts';
import type { UploadLimits } from './actions/multipart-body.ts';
import { ConfigError, readSecret } from './config.ts';
import type { OnServerError } from './observability/error-hook.ts';
import type { GetLoadContext, LoadContextArgs } from './render/request-context.ts';
import type { AppLoggerOptions } from './observability/logger.ts';
import type { StatusPageOptions } from './errors/status-pages.ts';
import type { AppReadinessCheck } from './lifecycle/app-readiness.ts';
import { checkPolicySources, PolicySourceError, type PolicySources } from './security/content-security-policy.ts';

export { ConfigError, readSecret };

/** The environment as the app's `settings` sees it: read-only, values unparsed. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Everything an app is (docs/building-an-app.md): `app/app.ts` declares it once, and the
 * production entry, `npm run dev`, the image and the fixture servers all start from it. The
 * framework reads nothing of the app from anywhere else.
 */
export interface AppDefinition<Settings = undefined> {
  /** The page and resource routes, and the layouts around them (`app/routes.ts`). */
  readonly routes: readonly RouteTableEntry[];
  /** Head defaults for every page: the site's name (the title's suffix) and description. */
  readonly site?: Partial<SiteHead> | undefined;
  /**
   * The app's own environment settings (a session secret, a database URL), read once at start,
   * beside the framework's, before anything listens. A bad value is a `ConfigError`: the start
   * stops with its one line and exit code 78, as for the framework's settings.
   */
  readonly settings?: ((env: Environment) => Settings) | undefined;
  /**
   * Makes the per-request `context` every `load` and `action` receives; `{}` without it. Given
   * the request as `load` sees it and `responseHeaders`, which every answer to it carries.
   */
  readonly getLoadContext?: ((args: LoadContextArgs, settings: Settings) => AppLoadContext | Promise<AppLoadContext>) | undefined;
  /**
   * The escape hatch to Express, the one place the app sees it: its own middleware and routes
   * (an API endpoint, a webhook, an auth check), mounted on a router that runs after the
   * framework's edge (logging, security headers, malformed requests, built files, probes) and
   * before the pages. Answers from it get the same status pages, digests and log lines as
   * the pages'.
   */
  readonly middleware?: ((router: Router, settings: Settings) => void) | undefined;
  /**
   * Sources the pages' Content-Security-Policy allows besides the site itself (docs/security.md#the-apps-own-sources):
   * images from a CDN, an API's origin, fonts, frames, a payment provider's form action. Each is
   * checked as the app is built; one that is not a host or scheme source stops the start.
   */
  readonly contentSecurityPolicy?: PolicySources | undefined;
  /**
   * Lets actions take `multipart/form-data` posts, files held in memory as `File`s within these
   * caps (each one defaulted when left out; docs/building-an-app.md#uploads). Without it, such a
   * post gets 415.
   */
  readonly uploads?: Partial<UploadLimits> | undefined;
  /**
   * Hands every server error to the app's error tracker (docs/observability.md#reporting-errors):
   * once per error, after its log line, never awaited by the answer; its own failure is logged.
   */
  readonly onError?: OnServerError | undefined;
  /** The app's redaction paths, mixin, level and destination for the logger (docs/observability.md#the-apps-logger). */
  readonly logger?: AppLoggerOptions | undefined;
  /** The status pages' words per language and their look: the app's stylesheet or component (docs/status-pages.md#the-apps-choices). */
  readonly statusPages?: StatusPageOptions | undefined;
  /**
   * Awaited once at start, after the settings and before the server listens (Fastify's
   * `onReady`): the app's migrations, a first connection. If it throws, the start stops with one
   * fatal line saying why and exit code 78, and nothing listens (docs/lifecycle.md#the-apps-hooks).
   */
  readonly onStart?: ((settings: Settings) => Promise<void> | void) | undefined;
  /**
   * What `/readyz` asks besides the framework's own state (docs/deployment.md#the-apps-readiness):
   * `check` resolves when the app can answer (its database answers a trivial query) and rejects
   * when it cannot; `/readyz` then answers 503 with the reason. Run at most once per `intervalMs`
   * however often the probe is polled, and bounded by `timeoutMs` (1 s each by default).
   * `/healthz` never runs it.
   */
  readonly readinessCheck?: (Omit<AppReadinessCheck, 'check'> & { readonly check: (settings: Settings) => Promise<unknown> | unknown }) | undefined;
  /**
   * Awaited on shutdown after the server has drained, every in-flight answer sent (Fastify's
   * `onClose`): close the app's pool. Bounded by the shutdown deadline, past which the process
   * exits 1 anyway; a close that throws is logged and exits 1 (docs/lifecycle.md#the-apps-hooks).
   */
  readonly onClose?: ((settings: Settings) => Promise<void> | void) | undefined;
}

/** An app with its settings read: what `createApp` takes. */
export interface ResolvedApp {
  readonly routes: readonly RouteTableEntry[];
  readonly site?: Partial<SiteHead> | undefined;
  readonly getLoadContext?: GetLoadContext | undefined;
  readonly middleware?: ((router: Router) => void) | undefined;
  readonly uploads?: Partial<UploadLimits> | undefined;
  readonly contentSecurityPolicy?: PolicySources | undefined;
  readonly onError?: OnServerError | undefined;
  readonly logger?: AppLoggerOptions | undefined;
  readonly statusPages?: StatusPageOptions | undefined;
  readonly onStart?: (() => Promise<void>) | undefined;
  readonly readinessCheck?: AppReadinessCheck | undefined;
  readonly onClose?: (() => Promise<void>) | undefined;
}

/** Declares the app: typed, returned as given (`export default defineApp({ ... })` in `app/app.ts`). */
export function defineApp<Settings = undefined>(definition: AppDefinition<Settings>): AppDefinition<Settings> {
  return definition;
}

/** Reads the app's settings from `env` once and binds them to its hooks. Throws `ConfigError` for a bad value. */
export function resolveApp<Settings>(definition: AppDefinition<Settings>, env: Environment): ResolvedApp {
  const { routes, site, getLoadContext, middleware, onStart, readinessCheck, onClose } = definition;
  const settings = definition.settings?.(env) as Settings;
  return {
    routes,
    site,
    getLoadContext: getLoadContext === undefined ? undefined : (args) => getLoadContext(args, settings),
    middleware: middleware === undefined ? undefined : (router) => middleware(router, settings),
    uploads: definition.uploads,
    contentSecurityPolicy: appPolicySources(definition.contentSecurityPolicy),
    onError: definition.onError,
    logger: definition.logger,
    statusPages: definition.statusPages,
    onStart: onStart === undefined ? undefined : async () => onStart(settings),
    readinessCheck: readinessCheck === undefined ? undefined : { ...readinessCheck, check: () => readinessCheck.check(settings) },
    onClose: onClose === undefined ? undefined : async () => onClose(settings),
  };
}

/** The app's policy sources, checked with its settings: a bad one stops the start with one line naming it and exit 78. */
function appPolicySources(sources: PolicySources | undefined): PolicySources {
  try {
    return checkPolicySources(sources);
  } catch (error) {
    if (error instanceof PolicySourceError) throw new ConfigError(error.setting, error.value, error.expected);
    throw error;
  }
}
