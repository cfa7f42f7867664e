import { fileURLToPath } from 'node:url';
import { routes } from '../shared/routes.ts';
import { ConfigError, parseConfig, type Config } from './config.ts';
import { startServer } from './start-server.ts';

/** The bundle lives in dist/server/; the client build beside it in dist/client/. */
const DEFAULT_ASSETS_DIR = fileURLToPath(new URL('../client/', import.meta.url));

/** The only place that reads the environment; a bad value stops the process here. */
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

await startServer(readConfig(), routes);
