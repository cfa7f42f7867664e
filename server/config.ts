import { isIP } from 'node:net';
import type { TrustProxy } from './app.ts';

export type Environment = 'production' | 'development' | 'test';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Everything the process can be told, parsed once at start (SPEC §9). */
export interface Config {
  readonly environment: Environment;
  readonly port: number;
  readonly host: string | undefined;
  readonly logLevel: LogLevel;
  readonly publicOrigin: URL | undefined;
  readonly trustProxy: TrustProxy;
  readonly keepAliveTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly renderTimeoutMs: number;
  readonly shutdownDelayMs: number;
  readonly shutdownDeadlineMs: number;
  /** Folder of the built client (manifest and `/assets/` files). */
  readonly assetsDir: string;
}

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

function origin(env: Env, name: string): URL | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, raw, 'an absolute http(s) origin such as https://example.com');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    throw new ConfigError(name, raw, 'an absolute http(s) origin such as https://example.com');
  }
  return url;
}

/** Names `proxy-addr` (Express's `trust proxy`) knows besides addresses and subnets. */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  if (rest.length > 0 || isIP(address) === 0) return false;
  if (bits === undefined) return true;
  const max = isIP(address) === 4 ? 32 : 128;
  return /^\d+$/.test(bits) ? Number(bits) <= max : isIP(bits) === 4;
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

/** Reads and validates the environment once; throws ConfigError naming the first bad variable. */
export function parseConfig(env: Env, defaults: { readonly assetsDir: string }): Config {
  const environment = oneOf<Environment>(env, 'NODE_ENV', ['production', 'development', 'test'], 'production');
  // Load balancers commonly idle out at 60 s: keep connections open longer so they close them.
  const keepAliveTimeoutMs = integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 65_000, 1_000, HOUR_MS);
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS', keepAliveTimeoutMs + 1_000, 1_000, HOUR_MS);
  if (headersTimeoutMs <= keepAliveTimeoutMs) {
    throw new ConfigError('HEADERS_TIMEOUT_MS', String(headersTimeoutMs), `more than KEEP_ALIVE_TIMEOUT_MS (${keepAliveTimeoutMs})`);
  }
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 300_000, 0, HOUR_MS);
  if (requestTimeoutMs !== 0 && requestTimeoutMs < headersTimeoutMs) {
    // Node refuses a headers timeout longer than the request timeout.
    throw new ConfigError('REQUEST_TIMEOUT_MS', String(requestTimeoutMs), `0 or at least HEADERS_TIMEOUT_MS (${headersTimeoutMs})`);
  }
  return {
    environment,
    port: integer(env, 'PORT', 3000, 0, 65_535),
    host: read(env, 'HOST'),
    logLevel: oneOf<LogLevel>(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    publicOrigin: origin(env, 'PUBLIC_ORIGIN'),
    trustProxy: trustProxy(env, 'TRUST_PROXY'),
    keepAliveTimeoutMs,
    headersTimeoutMs,
    requestTimeoutMs,
    renderTimeoutMs: integer(env, 'RENDER_TIMEOUT_MS', 10_000, 1, HOUR_MS),
    shutdownDelayMs: integer(env, 'SHUTDOWN_DELAY_MS', environment === 'production' ? 5_000 : 0, 0, HOUR_MS),
    shutdownDeadlineMs: integer(env, 'SHUTDOWN_DEADLINE_MS', 20_000, 0, HOUR_MS),
    assetsDir: read(env, 'ASSETS_DIR') ?? defaults.assetsDir,
  };
}
