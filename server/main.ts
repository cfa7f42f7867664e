import { fileURLToPath } from 'node:url';
import { routes } from '../shared/routes.ts';
import { createApp } from './app.ts';
import { loadClientAssets } from './client-assets.ts';
import { ConfigError, parseConfig, type Config } from './config.ts';
import { installGracefulShutdown } from './graceful-shutdown.ts';
import { createHttpServer } from './http-server.ts';
import { createLogger } from './logger.ts';
import { createMetrics } from './metrics.ts';
import { createMetricsServer } from './metrics-server.ts';
import { ReadinessState } from './readiness-state.ts';

/** The bundle lives in dist/server/; the client build beside it in dist/client/. */
const DEFAULT_ASSETS_DIR = fileURLToPath(new URL('../client/', import.meta.url));

function readConfig(): Config {
  try {
    return parseConfig(process.env, { assetsDir: DEFAULT_ASSETS_DIR });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

const config = readConfig();
const logger = createLogger({ level: config.logLevel });
const readiness = new ReadinessState();
const metrics = config.metricsPort === undefined ? undefined : createMetrics();
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
});

const server = createHttpServer(app, {
  keepAliveTimeoutMs: config.keepAliveTimeoutMs,
  headersTimeoutMs: config.headersTimeoutMs,
  requestTimeoutMs: config.requestTimeoutMs,
  logger,
});
const metricsServer = metrics === undefined ? undefined : createMetricsServer(metrics.registry);

installGracefulShutdown({
  server,
  readiness,
  logger,
  delayMs: config.shutdownDelayMs,
  deadlineMs: config.shutdownDeadlineMs,
  exit: (code) => process.exit(code),
});

server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  logger.info({ port, host: config.host ?? null, environment: config.environment }, 'listening');
});

if (metricsServer !== undefined && config.metricsPort !== undefined) {
  // Scrapes must not keep the process alive during shutdown.
  metricsServer.unref();
  metricsServer.listen(config.metricsPort, config.metricsHost, () => {
    logger.info({ port: config.metricsPort, host: config.metricsHost ?? null }, 'metrics listening');
  });
}
