import { routes } from '../shared/routes.ts';
import { ConfigError, parseConfig, type Config } from './config.ts';
import type { CodeCacheUse } from './load-server.ts';
import { START_EXIT, startServer, type RunningServer } from './start-server.ts';

export interface MainOptions {
  /** Where the client build is unless ASSETS_DIR says otherwise: dist/client/, beside the bundle's dist/server/. */
  readonly defaultAssetsDir: string;
  /** The environment to read; the process's own but for the build's run that fills the code cache. */
  readonly env?: NodeJS.ProcessEnv;
  /** How the bundle was compiled (load-server.ts), for the "listening" line. */
  readonly codeCache?: CodeCacheUse;
}

/**
 * The only place that reads the environment; a bad value stops the process here, before the log
 * level is known, so its one line goes to stderr as plain text (docs/deployment.md).
 */
function readConfig(env: NodeJS.ProcessEnv, defaultAssetsDir: string): Config {
  try {
    return parseConfig(env, { assetsDir: defaultAssetsDir });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(START_EXIT.badConfig);
    }
    throw error;
  }
}

/**
 * Reads the configuration and starts the server: what `node dist/server/main.js` runs, once
 * entry.ts has loaded this bundle. Loading it starts nothing. Failures past the configuration (no
 * client build, a port that cannot be listened on) are one fatal log line and an exit code of
 * START_EXIT, written by startServer itself.
 */
export function main({ defaultAssetsDir, env = process.env, codeCache }: MainOptions): Promise<RunningServer> {
  return startServer(readConfig(env, defaultAssetsDir), routes, { codeCache });
}
