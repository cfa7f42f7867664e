import type { RequestListener, Server } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';
import type { RouteDefinition } from '../shared/route-definition.ts';
import { createApp } from './app.ts';
import { loadClientAssets } from './render/client-assets.ts';
import type { Config } from './config.ts';
import { installGracefulShutdown } from './lifecycle/graceful-shutdown.ts';
import { createHttpServer } from './lifecycle/http-server.ts';
import { createLogger } from './observability/logger.ts';
import { createMetrics } from './observability/metrics.ts';
import { createMetricsServer } from './observability/metrics-server.ts';
import { ReadinessState } from './lifecycle/readiness.ts';

export interface StartOptions {
  /** Lets a harness put handlers in front of the app (test fixtures); production passes none. */
  readonly wrap?: (app: Express) => RequestListener;
}

export interface RunningServer {
  readonly server: Server;
  readonly logger: Logger;
}

/**
 * Everything `main.ts` does once the configuration is read: build the app, listen, serve
 * metrics on their own port when asked, and shut down gracefully on SIGTERM or SIGINT.
 * Fixture servers of the tests start through here too, so they run the real lifecycle.
 */
export async function startServer(config: Config, routes: readonly RouteDefinition[], options: StartOptions = {}): Promise<RunningServer> {
  const logger = createLogger({ level: config.logLevel });
  const readiness = new ReadinessState();
  const metrics = config.metricsPort === undefined ? undefined : await createMetrics();
  const app = createApp({
    routes,
    logger,
    assets: loadClientAssets(config.assetsDir),
    publicOrigin: config.publicOrigin,
    trustProxy: config.trustProxy,
    renderTimeoutMs: config.renderTimeoutMs,
    development: config.environment === 'development',
    readiness,
    liveReloadUrl: config.liveReloadUrl,
    analytics: { pageViews: config.analyticsPageViews, speedInsights: config.analyticsSpeedInsights },
    telemetry: { enabled: config.webVitals, ratePerMinute: config.telemetryRatePerMinute },
    metrics,
    compression: config.compression,
  });

  const server = createHttpServer(options.wrap?.(app) ?? app, {
    keepAliveTimeoutMs: config.keepAliveTimeoutMs,
    headersTimeoutMs: config.headersTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
    logger,
  });
  installGracefulShutdown({
    server,
    readiness,
    logger,
    delayMs: config.shutdownDelayMs,
    deadlineMs: config.shutdownDeadlineMs,
    exit: (code) => process.exit(code),
  });
  // A port in use or a host that does not resolve: one fatal JSON line, not a stack trace.
  server.once('error', function cannotListen(error: NodeJS.ErrnoException) {
    logger.fatal({ err: error, port: config.port, host: config.host ?? null }, 'cannot listen');
    logger.flush();
    process.exit(1);
  });
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : config.port;
    logger.info({ port, host: config.host ?? null, environment: config.environment }, 'listening');
  });

  if (metrics !== undefined && config.metricsPort !== undefined) {
    const metricsServer = createMetricsServer(metrics.registry, logger);
    // Scrapes must not keep the process alive during shutdown.
    metricsServer.unref();
    metricsServer.listen(config.metricsPort, config.metricsHost, () => {
      logger.info({ port: config.metricsPort, host: config.metricsHost ?? null }, 'metrics listening');
    });
  }
  return { server, logger };
}
