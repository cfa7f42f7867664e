import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createApp } from './app.ts';
import { loadClientAssets } from './client-assets.ts';
import { ConfigError, parseConfig, type Config } from './config.ts';
import { installGracefulShutdown } from './graceful-shutdown.ts';
import { createLogger } from './logger.ts';
import { ReadinessState } from './readiness-state.ts';
import { routes } from '../shared/routes.ts';

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
const app = createApp({
  routes,
  logger,
  assets: loadClientAssets(config.assetsDir),
  publicOrigin: config.publicOrigin,
  trustProxy: config.trustProxy,
  renderTimeoutMs: config.renderTimeoutMs,
  development: config.environment === 'development',
  readiness,
});

// Node answers a missing Host itself with a bare 400; let the app answer with its page.
const server = createServer(
  {
    requireHostHeader: false,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    headersTimeout: config.headersTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
  },
  app,
);

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
