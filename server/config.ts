import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { isSitePath } from './http/site-path.ts';
import { isPolicySource } from './security/content-security-policy.ts';
import { keptDevSecret } from './dev-secrets.ts';
import { CSRF_SECRET_MIN_LENGTH } from './security/csrf.ts';

/** What Express's `trust proxy` setting accepts: a hop count, addresses, or names. */
export type TrustProxy = boolean | number | string | readonly string[];

export type Environment = 'production' | 'development' | 'test';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** When the overload guard refuses new work (lifecycle/overload-guard.ts); 0 leaves a limit unchecked. */
export interface OverloadLimits {
  /** Mean event-loop delay over the last sample, in ms. */
  readonly maxEventLoopDelayMs: number;
  /** Requests admitted and not yet answered (or abandoned). */
  readonly maxInFlight: number;
  readonly maxHeapUsedBytes: number;
  readonly maxRssBytes: number;
  /** The refusal's `Retry-After`, in seconds. */
  readonly retryAfterSeconds: number;
}

/**
 * The settings every page and resource answer is bound by (docs/rendering.md), as one group from
 * the environment to the page handlers: a new one is declared here with its default in
 * `PAGE_DEFAULTS`, read in `parseConfig`, and reaches them as it is (`Config.pages`,
 * `AppOptions.pages`, `PageHandlerOptions.pages`).
 */
export interface PageSettings {
  /** `RENDER_TIMEOUT_MS`: bounds each request's run, from its first handler to its answer's delivery. */
  readonly renderTimeoutMs: number;
  /** `COMPRESSION`: compress streamed pages; off where the proxy in front compresses. */
  readonly compression: boolean;
}

/** Each page setting's default: the environment's when unset, and createApp's for one left out. */
export const PAGE_DEFAULTS: PageSettings = { renderTimeoutMs: 10_000, compression: true };

/** Where a listener binds (`PORT`/`HOST`, `METRICS_PORT`/`METRICS_HOST`). */
export interface ListenAddress {
  readonly port: number;
  readonly host: string | undefined;
}

/** The public listener: its address and how it takes connections (server/lifecycle/listen-sockets.ts). */
export interface ListenSettings extends ListenAddress {
  /** `LISTEN_BACKLOG`: connections the kernel holds for the server before it accepts them. */
  readonly backlog: number;
  /** `LISTEN_SOCKETS`: listening sockets on the port. */
  readonly sockets: number;
}

/** How long Node's HTTP server keeps a connection and waits for a request (server/lifecycle/http-server.ts). */
export interface ConnectionTimeouts {
  readonly keepAliveTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
}

/** What the app believes of the proxy in front (docs/deployment.md): `createApp` takes these as they are. */
export interface ProxySettings {
  /** `PUBLIC_ORIGIN`: absolute URLs and the error page's host come from here, never from request headers. */
  readonly publicOrigin: URL | undefined;
  /** `TRUST_PROXY`: which peers' `X-Forwarded-*` headers to believe. */
  readonly trustProxy: TrustProxy;
}

/** A graceful shutdown's two waits (server/lifecycle/graceful-shutdown.ts). */
export interface ShutdownSettings {
  /** `SHUTDOWN_DELAY_MS`: answering, with readiness 503, before the listener closes. */
  readonly delayMs: number;
  /** `SHUTDOWN_DEADLINE_MS`: how long in-flight answers may take after that. */
  readonly deadlineMs: number;
}

/** The hosting provider's scripts (docs/observability.md): `true` for its default path, a URL for another, `false` off. */
export interface AnalyticsSettings {
  readonly pageViews: boolean | string;
  readonly speedInsights: boolean | string;
}

/** First-party web vitals and client error reports (`WEB_VITALS`, `TELEMETRY_RATE_PER_MINUTE`). */
export interface TelemetrySettings {
  readonly enabled: boolean;
  readonly ratePerMinute: number;
}

/** Form posts' cross-site check (docs/security.md). */
export interface FormSettings {
  /** `CSRF_SECRET`: signs the form tokens. Never logged. */
  readonly secret: string;
  /** It was unset (development and test, or MAKE_MISSING_SECRETS): `secret` was made for this process. */
  readonly secretGenerated: boolean;
}

/**
 * Everything the process can be told, parsed once at start (docs/deployment.md), grouped by the
 * part that takes it: each group is handed to its part as it is, so a new setting is declared in
 * its group and read in `parseConfig`, and nothing between reshapes it.
 */
export interface Config {
  readonly environment: Environment;
  readonly logLevel: LogLevel;
  readonly listen: ListenSettings;
  readonly connections: ConnectionTimeouts;
  readonly proxy: ProxySettings;
  /** What pages and resource routes are bound by: the render timeout, compression. */
  readonly pages: PageSettings;
  /** When the server refuses new work with 503 (docs/security.md#overload); `undefined`: never (`OVERLOAD_GUARD=off`). */
  readonly overload: OverloadLimits | undefined;
  readonly shutdown: ShutdownSettings;
  /** Folder of the built client (manifest and `/assets/` files). */
  readonly assetsDir: string;
  readonly analytics: AnalyticsSettings;
  readonly telemetry: TelemetrySettings;
  /** The Prometheus listener; `undefined` keeps it off (`METRICS_PORT` unset). */
  readonly metrics: ListenAddress | undefined;
  /** Development only: where `npm run dev` serves reload events. */
  readonly liveReloadUrl: URL | undefined;
  readonly forms: FormSettings;
}

/**
 * Every default, written once: `parseConfig` and `createApp` both read them, and the deploy/
 * manifests are checked against them.
 */
export const DEFAULTS = {
  port: 3000,
  keepAliveTimeoutMs: 65_000,
  requestTimeoutMs: 300_000,
  shutdownDelayMsProduction: 5_000,
  shutdownDeadlineMs: 20_000,
  telemetryRatePerMinute: 60,
  listenBacklog: 2_048,
  // SO_REUSEPORT as Node offers it: Linux here; macOS and Windows would refuse to listen.
  listenSockets: process.platform === 'linux' ? 16 : 1,
  overloadMaxEventLoopDelayMs: 100,
  overloadMaxInFlight: 0,
  overloadRetryAfterSeconds: 2,
} as const;

/** A bad value: the message names the variable and the value, and the process stops. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly variable: string;
  constructor(variable: string, value: string, expected: string) {
    super(`Invalid ${variable}=${JSON.stringify(value)}: expected ${expected}`);
    this.variable = variable;
  }
}

type Env = Readonly<Record<string, string | undefined>>;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(name, raw, `a whole number from ${min} to ${max}`);
  }
  return value;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const found = allowed.find((candidate) => candidate === raw);
  if (found === undefined) throw new ConfigError(name, raw, `one of ${allowed.join(', ')}`);
  return found;
}

function origin(env: Env, name: string, allowPath = false): URL | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, raw, 'an absolute http(s) origin such as https://example.com');
  }
  const extra = !allowPath && (url.pathname !== '/' || url.search !== '' || url.hash !== '');
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || extra) {
    throw new ConfigError(name, raw, 'an absolute http(s) origin such as https://example.com');
  }
  return url;
}

/** Names `proxy-addr` (Express's `trust proxy`) knows besides addresses and subnets. */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IPv4 netmask's ones are contiguous from the left, and there is at least one: `255.255.0.0`, not `255.0.255.0` or `0.0.0.0`. */
function isNetmask(mask: string): boolean {
  const value = mask.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
  const hostBits = 0xffff_ffff - value;
  return value !== 0 && (hostBits & (hostBits + 1)) === 0;
}

/**
 * An entry `proxy-addr` (Express's `trust proxy`) takes: a name, an address, or a subnet whose
 * prefix length is 1 to the address's bits, or, after an IPv4 address, a netmask. What it would
 * refuse must be refused here, naming the variable: it would otherwise throw inside createApp.
 */
function isProxyAddress(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (rest.length > 0 || family === 0) return false;
  if (bits === undefined) return true;
  if (/^\d+$/.test(bits)) return Number(bits) >= 1 && Number(bits) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(bits) === 4 && isNetmask(bits);
}

/** `TRUST_PROXY`: true/false, a hop count, or a comma list of addresses, subnets and names. */
function trustProxy(env: Env, name: string): TrustProxy {
  const raw = read(env, name);
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  if (entries.some((entry) => !isProxyAddress(entry))) {
    throw new ConfigError(name, raw, 'true, false, a hop count, or a comma list of addresses, subnets, loopback, linklocal, uniquelocal');
  }
  return entries;
}

const HOUR_MS = 3_600_000;

function onOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (['on', 'true', '1'].includes(raw)) return true;
  if (['off', 'false', '0'].includes(raw)) return false;
  throw new ConfigError(name, raw, 'on or off');
}

/**
 * Characters that would let a script URL change the Content-Security-Policy it is put in: `;`
 * starts a directive, `,` a second policy, a quote a keyword, whitespace another source.
 * Control characters never belong in a URL.
 */
const UNSAFE_IN_POLICY = /[;,'"\s\p{Cc}]/u;

/**
 * `off`, `on` (the provider's default path) or the script's URL (absolute, or a path). A URL's
 * origin must be a source the CSP builder accepts as is (docs/security.md), so a value that
 * would be refused there is refused here, naming the variable, before anything starts.
 */
function scriptSwitch(env: Env, name: string): boolean | string {
  const expected = 'off, on, a path such as /scripts/a.js, or an http(s) URL, without ; , quotes or whitespace';
  const raw = read(env, name);
  if (raw === undefined || ['off', 'false', '0'].includes(raw)) return false;
  if (['on', 'true', '1'].includes(raw)) return true;
  if (UNSAFE_IN_POLICY.test(raw)) throw new ConfigError(name, raw, expected);
  if (isSitePath(raw)) return raw;
  try {
    const url = new URL(raw);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && isPolicySource(url.origin)) return url.href;
  } catch {
    // Falls through to the error below.
  }
  throw new ConfigError(name, raw, expected);
}

/**
 * A listen address: an IP address or a host name (RFC 1123 labels), e.g. `::`, `localhost`. A
 * name whose last label is all digits is none (RFC 3696 §2): `256.1.1.1` is a mistyped address,
 * and the resolver would read `1234` as one.
 */
function listenHost(env: Env, name: string): string | undefined {
  const raw = read(env, name);
  if (raw === undefined || isIP(raw) !== 0) return raw;
  if (raw.length <= 253 && /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/i.test(raw) && !/(?:^|\.)\d+$/.test(raw)) return raw;
  throw new ConfigError(name, raw, 'an IP address or a host name such as 0.0.0.0, :: or localhost');
}

function optionalPort(env: Env, name: string): number | undefined {
  return read(env, name) === undefined ? undefined : integer(env, name, 0, 1, 65_535);
}

/**
 * Whether a secret left unset may be made for the process: outside production always, in
 * production only when `MAKE_MISSING_SECRETS=on`, which `npm start` sets for one local run. A
 * deployment never does: its instances must sign alike, and a restart must not end every session.
 */
function mayMakeSecrets(env: Env, environment: Environment): boolean {
  // Read first, so a bad value is refused whether or not a secret is missing.
  const asked = onOff(env, 'MAKE_MISSING_SECRETS', false);
  return environment !== 'production' || asked;
}

/**
 * `DEV_SECRETS_FILE`: where development keeps the secrets it makes (dev-secrets.ts), so that a
 * restart after a save keeps sessions. Refused outside development: a deployment's secrets are
 * its own settings, never a file the server writes.
 */
function devSecretsFile(env: Env, environment: Environment): string | undefined {
  const file = read(env, 'DEV_SECRETS_FILE');
  if (file !== undefined && environment !== 'development') throw new ConfigError('DEV_SECRETS_FILE', file, 'unset: kept secrets are for NODE_ENV=development only');
  return file;
}

/**
 * `CSRF_SECRET`: required in production, where every instance must sign form tokens alike.
 * Elsewhere (or with MAKE_MISSING_SECRETS) an unset secret is made for the process. The value
 * never appears in a message.
 */
function csrfSecret(env: Env, name: string, environment: Environment): FormSettings {
  const raw = read(env, name);
  const mayMake = mayMakeSecrets(env, environment);
  const expected = `a secret of at least ${CSRF_SECRET_MIN_LENGTH} characters, required when NODE_ENV=production (e.g. openssl rand -base64 48)`;
  // Read first, so the setting is refused outside development whether or not a secret is missing.
  const keptIn = devSecretsFile(env, environment);
  if (raw === undefined) {
    if (!mayMake) throw new ConfigError(name, '', expected);
    if (keptIn !== undefined) return { secret: keptDevSecret(keptIn, name, CSRF_SECRET_MIN_LENGTH), secretGenerated: false };
    return { secret: randomBytes(32).toString('base64url'), secretGenerated: true };
  }
  if (raw.length < CSRF_SECRET_MIN_LENGTH) throw new ConfigError(name, `<${raw.length} characters, not shown>`, expected);
  return { secret: raw, secretGenerated: false };
}

/**
 * A secret an app reads in its `settings` (app/app.ts), such as `SESSION_SECRET`, by the same
 * rule as `CSRF_SECRET`: required in production, where every instance must sign alike; made for
 * the process elsewhere, or with MAKE_MISSING_SECRETS, so development, tests and `npm start`
 * start without one (their sessions end with the process). Throws ConfigError, never showing
 * the value.
 */
export function readSecret(env: Env, name: string): string {
  const environment = oneOf<Environment>(env, 'NODE_ENV', ['production', 'development', 'test'], 'production');
  return csrfSecret(env, name, environment).secret;
}

const MIB = 1_048_576;

/**
 * `OVERLOAD_*`: the limits past which new requests are refused with 503, each 0 for not
 * checked; `OVERLOAD_GUARD=off` checks none. Heap and RSS are off by default: what is too much
 * depends on the memory the instance is given.
 */
function overloadLimits(env: Env): OverloadLimits | undefined {
  const limits: OverloadLimits = {
    maxEventLoopDelayMs: integer(env, 'OVERLOAD_MAX_EVENT_LOOP_DELAY_MS', DEFAULTS.overloadMaxEventLoopDelayMs, 0, 60_000),
    maxInFlight: integer(env, 'OVERLOAD_MAX_IN_FLIGHT', DEFAULTS.overloadMaxInFlight, 0, 1_000_000),
    maxHeapUsedBytes: integer(env, 'OVERLOAD_MAX_HEAP_USED_MB', 0, 0, 1_048_576) * MIB,
    maxRssBytes: integer(env, 'OVERLOAD_MAX_RSS_MB', 0, 0, 1_048_576) * MIB,
    retryAfterSeconds: integer(env, 'OVERLOAD_RETRY_AFTER_S', DEFAULTS.overloadRetryAfterSeconds, 1, 3_600),
  };
  // Read first, so a bad limit is refused whether or not the guard is on.
  return onOff(env, 'OVERLOAD_GUARD', true) ? limits : undefined;
}

/** Reads and validates the environment once; throws ConfigError naming the first bad variable. */
export function parseConfig(env: Env, defaults: { readonly assetsDir: string }): Config {
  const environment = oneOf<Environment>(env, 'NODE_ENV', ['production', 'development', 'test'], 'production');
  // Load balancers commonly idle out at 60 s: keep connections open longer so they close them.
  const keepAliveTimeoutMs = integer(env, 'KEEP_ALIVE_TIMEOUT_MS', DEFAULTS.keepAliveTimeoutMs, 1_000, HOUR_MS);
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS', keepAliveTimeoutMs + 1_000, 1_000, HOUR_MS);
  if (headersTimeoutMs <= keepAliveTimeoutMs) {
    throw new ConfigError('HEADERS_TIMEOUT_MS', String(headersTimeoutMs), `more than KEEP_ALIVE_TIMEOUT_MS (${keepAliveTimeoutMs})`);
  }
  // Unset, it is at least the headers timeout, which Node requires and a long keep-alive raises.
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', Math.max(DEFAULTS.requestTimeoutMs, headersTimeoutMs), 0, HOUR_MS);
  if (requestTimeoutMs !== 0 && requestTimeoutMs < headersTimeoutMs) {
    // Node refuses a headers timeout longer than the request timeout.
    throw new ConfigError('REQUEST_TIMEOUT_MS', String(requestTimeoutMs), `0 or at least HEADERS_TIMEOUT_MS (${headersTimeoutMs})`);
  }
  const metricsPort = optionalPort(env, 'METRICS_PORT');
  const metricsHost = listenHost(env, 'METRICS_HOST');
  return {
    environment,
    logLevel: oneOf<LogLevel>(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    listen: {
      port: integer(env, 'PORT', DEFAULTS.port, 0, 65_535),
      host: listenHost(env, 'HOST'),
      // The kernel caps it at net.core.somaxconn.
      backlog: integer(env, 'LISTEN_BACKLOG', DEFAULTS.listenBacklog, 1, 65_535),
      sockets: integer(env, 'LISTEN_SOCKETS', DEFAULTS.listenSockets, 1, 256),
    },
    connections: { keepAliveTimeoutMs, headersTimeoutMs, requestTimeoutMs },
    proxy: { publicOrigin: origin(env, 'PUBLIC_ORIGIN'), trustProxy: trustProxy(env, 'TRUST_PROXY') },
    pages: {
      renderTimeoutMs: integer(env, 'RENDER_TIMEOUT_MS', PAGE_DEFAULTS.renderTimeoutMs, 1, HOUR_MS),
      compression: onOff(env, 'COMPRESSION', PAGE_DEFAULTS.compression),
    },
    overload: overloadLimits(env),
    shutdown: {
      delayMs: integer(env, 'SHUTDOWN_DELAY_MS', environment === 'production' ? DEFAULTS.shutdownDelayMsProduction : 0, 0, HOUR_MS),
      deadlineMs: integer(env, 'SHUTDOWN_DEADLINE_MS', DEFAULTS.shutdownDeadlineMs, 0, HOUR_MS),
    },
    assetsDir: read(env, 'ASSETS_DIR') ?? defaults.assetsDir,
    analytics: { pageViews: scriptSwitch(env, 'ANALYTICS_PAGE_VIEWS'), speedInsights: scriptSwitch(env, 'ANALYTICS_SPEED_INSIGHTS') },
    telemetry: {
      enabled: onOff(env, 'WEB_VITALS', false),
      ratePerMinute: integer(env, 'TELEMETRY_RATE_PER_MINUTE', DEFAULTS.telemetryRatePerMinute, 1, 100_000),
    },
    metrics: metricsPort === undefined ? undefined : { port: metricsPort, host: metricsHost },
    liveReloadUrl: environment === 'development' ? origin(env, 'LIVE_RELOAD_URL', true) : undefined,
    // Last: a value refused above is named before a missing secret.
    forms: csrfSecret(env, 'CSRF_SECRET', environment),
  };
}
