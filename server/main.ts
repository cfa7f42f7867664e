import { fileURLToPath } from 'node:url';
import { routes } from '../shared/routes.ts';
import { ConfigError, parseConfig, type Config } from './config.ts';
import { START_EXIT, startServer } from './start-server.ts';

/** The bundle lives in dist/server/; the client build beside it in dist/client/. */
const DEFAULT_ASSETS_DIR = fileURLToPath(new URL('../client/', import.meta.url));

/**
 * The only place that reads the environment; a bad value stops the process here, before the log
 * level is known, so its one line goes to stderr as plain text (docs/deployment.md).
 */
function readConfig(): Config {
  try {
    return parseConfig(process.env, { assetsDir: DEFAULT_ASSETS_DIR });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(START_EXIT.badConfig);
    }
    throw error;
  }
}

// Failures past this point (no client build, a port that cannot be listened on) are one fatal
// log line and an exit code of START_EXIT, written by startServer itself.
await startServer(readConfig(), routes);
