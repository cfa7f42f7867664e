/**
 * The package's server door (`react-stream-shell/server`): the app's declaration, its settings
 * and secrets, sessions, and the pieces of a custom server. Public and semver-bound (docs/api.md);
 * every other module of `server/` is private.
 */

export { defineApp, resolveApp, type AppDefinition, type Environment, type ResolvedApp } from './app-definition.ts';
export {
  ConfigError,
  PAGE_DEFAULTS,
  parseConfig,
  readSecret,
  type AnalyticsSettings,
  type Config,
  type ConnectionTimeouts,
  type FormSettings,
  type ListenAddress,
  type ListenSettings,
  type PageSettings,
  type ProxySettings,
  type ShutdownSettings,
  type TelemetrySettings,
} from './config.ts';
export {
  createCookieSessionStorage,
  MAX_SESSION_COOKIE_BYTES,
  SESSION_SECRET_MIN_LENGTH,
  SessionTooLargeError,
  type Session,
  type SessionCookieOptions,
  type SessionData,
  type SessionStorage,
} from './sessions/cookie-session.ts';
export { createSessionStorage, type SessionIdStorageStrategy } from './sessions/session-storage.ts';
export { createMemorySessionStorage } from './sessions/memory-session-storage.ts';
export { createApp, type AppOptions } from './app.ts';
export type { UploadLimits } from './actions/multipart-body.ts';
export type { OnServerError, ServerErrorInfo } from './observability/error-hook.ts';
export type { AppLoggerOptions } from './observability/logger.ts';
export type { PolicySources } from './security/content-security-policy.ts';
export type { StatusPageOptions } from './errors/status-pages.ts';
export type { StatusPageProps } from './errors/status-look.ts';
export type { StatusMessages } from './errors/status-wording.ts';
export type { LoadContextArgs } from './render/request-context.ts';
export type { AppReadinessCheck } from './lifecycle/app-readiness.ts';
export { START_EXIT, startServer, type RunningServer, type StartOptions } from './start-server.ts';
