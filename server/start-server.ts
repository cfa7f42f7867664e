import type { RequestListener, Server } from 'node:http';
import { join } from 'node:path';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { createApp } from './app.ts';
import type { ResolvedApp } from './app-definition.ts';
import type { CompileCacheState } from './compile-cache.ts';
import { loadClientAssets, MANIFEST_FILE, type ClientAssets } from './render/client-assets.ts';
import type { Config } from './config.ts';
import { installGracefulShutdown } from './lifecycle/graceful-shutdown.ts';
import { installCrashLog } from './lifecycle/crash-log.ts';
import { createHttpServer } from './lifecycle/http-server.ts';
import { listenOnSockets, type ExtraListeners } from './lifecycle/listen-sockets.ts';
import { createLogger } from './observability/logger.ts';
import { createMetrics } from './observability/metrics.ts';
import { createMetricsServer } from './observability/metrics-server.ts';
import { ReadinessState } from './lifecycle/readiness.ts';

export interface StartOptions {
  /** Lets a harness put handlers in front of the app (test fixtures); production passes none. */
  readonly wrap?: (app: Express) => RequestListener;
  /** What Node said when the entry enabled its compile cache, in the "listening" line; main.ts passes it. */
  readonly compileCache?: CompileCacheState | undefined;
}

export interface RunningServer {
  readonly server: Server;
  readonly logger: Logger;
}

/**
 * Why a start stopped, as the exit code says (docs/deployment.md). Each is one fatal line
 * naming the setting, never a stack: the cause is known, the stack would only hide it.
 */
export const START_EXIT = {
  /** PORT/HOST or METRICS_PORT/METRICS_HOST cannot be listened on (in use, no such address…). */
  cannotListen: 1,
  /** ASSETS_DIR holds no usable client build: sysexits' EX_NOINPUT, an input file is missing or unreadable. */
  noClientBuild: 66,
  /**
   * A bad environment value, refused before anything starts (main.ts): sysexits' EX_CONFIG. Also
   * the app's `onStart` failing (a migration that cannot be applied): one fatal line, nothing listens.
   */
  badConfig: 78,
} as const;

/** Writes the one fatal line and ends the process. */
function stopStarting(logger: Logger, exitCode: number, fields: Record<string, unknown>, message: string): never {
  logger.fatal({ ...fields, exitCode }, message);
  logger.flush();
  process.exit(exitCode);
}

/** The client build, or the process stops naming ASSETS_DIR. */
function loadClientBuild(assetsDir: string, logger: Logger): ClientAssets {
  try {
    return loadClientAssets(assetsDir);
  } catch (error) {
    const file = join(assetsDir, MANIFEST_FILE);
    const code = (error as NodeJS.ErrnoException).code;
    const cause = code === 'ENOENT' ? 'does not exist' : code === undefined ? 'is not a client manifest' : `cannot be read (${code})`;
    return stopStarting(
      logger,
      START_EXIT.noClientBuild,
      { setting: 'ASSETS_DIR', assetsDir, file, code: code ?? null, reason: error instanceof Error ? error.message : String(error) },
      `no client build in ASSETS_DIR: ${file} ${cause}; run npm run build, or point ASSETS_DIR at its output`,
    );
  }
}

/**
 * The process's logger, for a server's start or a `--prepare` run alike: the app's level, when it
 * sets one, else LOG_LEVEL; its redaction adds to the framework's; a crash is its last line.
 */
function processLogger(config: Config, definition: ResolvedApp): Logger {
  const appLogger = definition.logger;
  const logger = createLogger({ level: appLogger?.level ?? config.logLevel, destination: appLogger?.destination, app: appLogger });
  installCrashLog(logger, (code) => process.exit(code));
  return logger;
}

/** The app's `onStart` (its migrations), before anything listens; if it throws, one fatal line and exit 78. */
async function startApp(definition: ResolvedApp, logger: Logger): Promise<void> {
  if (definition.onStart === undefined) return;
  try {
    await definition.onStart();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    stopStarting(logger, START_EXIT.badConfig, { err: { type: error instanceof Error ? error.name : typeof error, message: reason } }, `app onStart failed: ${reason}`);
  }
}

/**
 * `node dist/server/main.js --prepare`: the app's `onStart` (its migrations) and then its
 * `onClose`, and nothing else: no client build read, nothing listening. A deployment runs it once
 * before the new instances start (a Kubernetes init container, a release step), so no instance
 * waits on another's migration as it starts. Exit 0 once both ran; an `onStart` that throws is
 * the start's own fatal line and exit 78, an `onClose` that throws is logged and exits 1.
 */
export async function prepareApp(config: Config, definition: ResolvedApp): Promise<never> {
  const logger = processLogger(config, definition);
  await startApp(definition, logger);
  if (definition.onClose !== undefined) {
    try {
      await definition.onClose();
    } catch (error) {
      logger.error({ err: error }, 'app onClose failed');
      logger.flush();
      process.exit(1);
    }
    logger.info('app closed');
  }
  logger.info('app prepared: onStart ran, nothing listened');
  logger.flush();
  process.exit(0);
}

/** One of the two listeners, with the names of the settings that place it. */
interface Listener {
  readonly portSetting: 'PORT' | 'METRICS_PORT';
  readonly hostSetting: 'HOST' | 'METRICS_HOST';
  readonly port: number;
  readonly host: string | undefined;
  /** Connections the kernel queues before they are accepted; Node's default (511) otherwise. */
  readonly backlog?: number;
  /** Listening sockets on the port (listen-sockets.ts); default 1. */
  readonly sockets?: number;
}

/** Node's own listen backlog, for the listeners given none. */
const NODE_BACKLOG = 511;

/** Errors that say the host is wrong rather than the port. */
const HOST_ERRORS: Readonly<Record<string, string>> = {
  EADDRNOTAVAIL: 'not an address of this machine',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved now',
  EAI_NONAME: 'the host name does not resolve',
};
const PORT_ERRORS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'address already in use',
  EACCES: 'permission denied (ports below 1024 need privileges)',
};

function cannotListen(error: NodeJS.ErrnoException, listener: Listener, logger: Logger): never {
  const code = error.code ?? 'unknown';
  const hostProblem = HOST_ERRORS[code];
  const setting = hostProblem === undefined ? listener.portSetting : listener.hostSetting;
  const value = hostProblem === undefined ? String(listener.port) : (listener.host ?? '');
  const where = `${listener.host ?? 'every address'} port ${listener.port}`;
  const why = hostProblem ?? PORT_ERRORS[code] ?? error.message;
  return stopStarting(
    logger,
    START_EXIT.cannotListen,
    { setting, port: listener.port, host: listener.host ?? null, code, syscall: error.syscall ?? null },
    `cannot listen on ${setting} ${value} (${where}): ${why} (${code})`,
  );
}

/**
 * Listens, or stops the process naming the setting. Once listening, the start-up handler goes:
 * a later error of the listener (accept failing with EMFILE when descriptors run out) is logged
 * at error and the listener keeps serving; connections already open are not affected. With
 * `sockets` above 1, the port has that many listening sockets (listen-sockets.ts).
 */
async function listen(server: Server, listener: Listener, logger: Logger): Promise<ExtraListeners> {
  const options = { port: listener.port, host: listener.host, backlog: listener.backlog ?? NODE_BACKLOG, sockets: listener.sockets ?? 1 };
  const extra = await listenOnSockets(server, options).catch((error: NodeJS.ErrnoException) => cannotListen(error, listener, logger));
  server.on('error', function serverError(error: NodeJS.ErrnoException) {
    logger.error({ err: error, setting: listener.portSetting, code: error.code ?? null, syscall: error.syscall ?? null }, `server error on ${listener.portSetting}: still serving`);
  });
  return extra;
}

/**
 * Everything `main.ts` does once the configuration and the app's settings are read: load the
 * client build, build the app, serve metrics on their own port when asked, listen, and shut down gracefully on SIGTERM
 * or SIGINT; an error that reaches no handler ends the process after one fatal log line (crash-log.ts). The metrics port is bound first, so a start that cannot serve its metrics stops
 * before the public port takes any traffic. Fixture servers of the tests start through here too,
 * so they run the real lifecycle.
 */
export async function startServer(config: Config, definition: ResolvedApp, options: StartOptions = {}): Promise<RunningServer> {
  const logger = processLogger(config, definition);
  const assets = loadClientBuild(config.assetsDir, logger);
  const readiness = new ReadinessState();
  const metrics = config.metrics === undefined ? undefined : await createMetrics();
  // Each group of the configuration goes to its part as it was read (config.ts).
  const app = createApp({
    app: definition,
    logger,
    assets,
    ...config.proxy,
    pages: config.pages,
    development: config.environment === 'development',
    readiness,
    liveReloadUrl: config.liveReloadUrl,
    analytics: config.analytics,
    telemetry: config.telemetry,
    metrics,
    overload: config.overload,
    forms: config.forms,
  });
  if (config.forms.secretGenerated) {
    // Never the secret itself: only that there is none to share (docs/security.md).
    logger.info({ setting: 'CSRF_SECRET', environment: config.environment }, 'CSRF_SECRET not set: form tokens are signed with a random secret made for this process');
  }

  const server = createHttpServer(options.wrap?.(app) ?? app, {
    ...config.connections,
    // A page's render timeout also bounds the delivery of every answer (docs/deployment.md).
    deliveryTimeoutMs: config.pages.renderTimeoutMs,
    logger,
  });
  const metricsServer = metrics === undefined ? undefined : createMetricsServer(metrics.registry, logger);
  // The public port's other sockets, once it listens: shutdown closes them with the server's own.
  let extraSockets: ExtraListeners | undefined;
  installGracefulShutdown({
    server,
    stopAccepting: () => extraSockets?.close() ?? Promise.resolve(),
    alsoClose: metricsServer === undefined ? [] : [metricsServer],
    readiness,
    logger,
    ...config.shutdown,
    ...(definition.onClose === undefined ? {} : { onClose: definition.onClose }),
    exit: (code) => process.exit(code),
  });
  await startApp(definition, logger);

  if (metricsServer !== undefined && config.metrics !== undefined) {
    // Scrapes must not keep the process alive during shutdown.
    metricsServer.unref();
    const listener = { portSetting: 'METRICS_PORT', hostSetting: 'METRICS_HOST', ...config.metrics } as const;
    const { port } = await listen(metricsServer, listener, logger);
    logger.info({ port, host: config.metrics.host ?? null }, 'metrics listening');
  }
  // A backlog past Node's 511: a burst of connections waits in the kernel's queue to be accepted
  // in order, rather than having its SYNs dropped and retried a second, three, seven later; and
  // several sockets, so that a busy event loop still accepts them (docs/security.md#overload).
  const publicListener = { portSetting: 'PORT', hostSetting: 'HOST', ...config.listen } as const;
  const listening = await listen(server, publicListener, logger);
  const { port } = listening;
  extraSockets = listening;
  // And should anything else close the server, with its last connection.
  server.once('close', () => void listening.close());
  const compileCache = options.compileCache === undefined ? {} : { compileCache: options.compileCache };
  logger.info({ port, host: config.listen.host ?? null, environment: config.environment, ...compileCache }, 'listening');
  return { server, logger };
}
