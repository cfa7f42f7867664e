import type { MainOptions } from './main.ts';
import type { RunningServer } from './start-server.ts';

/**
 * The server bundle, server.js beside the entry: the build makes its entry for the app it builds
 * (scripts/build-server.ts), main.ts's `main` with that app's declaration bound, so no framework
 * file imports an app. The entry imports it by this name; the build points the import there.
 */
export declare function main(options: Omit<MainOptions<unknown>, 'app'>): Promise<RunningServer>;
