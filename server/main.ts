import { resolveApp, type AppDefinition, type ResolvedApp } from './app-definition.ts';
import { ConfigError, parseConfig, type Config } from './config.ts';
import type { CompileCacheState } from './compile-cache.ts';
import { prepareApp, START_EXIT, startServer, type RunningServer } from './start-server.ts';

/** `node dist/server/main.js --prepare`: run the app's onStart and onClose, listen to nothing, exit. */
export const PREPARE_FLAG = '--prepare';

export interface MainOptions<Settings> {
  /** The app's declaration (its `app/app.ts`), which the build binds into the server bundle (scripts/build-server.ts). */
  readonly app: AppDefinition<Settings>;
  /** Where the client build is unless ASSETS_DIR says otherwise: dist/client/, beside the bundle's dist/server/. */
  readonly defaultAssetsDir: string;
  /** What Node said when the entry enabled its compile cache (compile-cache.ts), for the "listening" line. */
  readonly compileCache?: CompileCacheState;
}

/**
 * The only place that reads the environment: the framework's settings, then the app's own
 * (its declaration's `settings`). A bad value of either stops the process here, before the log level is known, so
 * its one line goes to stderr as plain text (docs/deployment.md).
 */
function readConfig<Settings>(env: NodeJS.ProcessEnv, app: AppDefinition<Settings>, defaultAssetsDir: string): { readonly config: Config; readonly app: ResolvedApp } {
  try {
    return { config: parseConfig(env, { assetsDir: defaultAssetsDir }), app: resolveApp(app, env) };
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
 * entry.ts has imported this bundle. Loading it starts nothing. Failures past the configuration (no
 * client build, a port that cannot be listened on) are one fatal log line and an exit code of
 * START_EXIT, written by startServer itself.
 */
export function main<Settings>({ app, defaultAssetsDir, compileCache }: MainOptions<Settings>): Promise<RunningServer> {
  const { config, app: resolved } = readConfig(process.env, app, defaultAssetsDir);
  // A release step: the app's onStart (its migrations) alone, then exit (start-server.ts).
  if (process.argv.includes(PREPARE_FLAG)) return prepareApp(config, resolved);
  return startServer(config, resolved, { compileCache });
}
