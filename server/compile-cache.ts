import { constants, enableCompileCache } from 'node:module';
import { join } from 'node:path';

/**
 * Node's module compile cache for the server bundle (docs/deployment.md#compile-cache): a folder
 * beside the bundle, filled by the build and by the image, read by every start.
 */
export const COMPILE_CACHE_DIR = 'compile-cache';

/**
 * What Node said when the entry enabled its compile cache, for the "listening" line. `enabled`
 * (or `already enabled` by `NODE_COMPILE_CACHE`) means Node reads the folder; whether it held
 * code for this very bundle Node checks per module and does not report. `failed` (a folder Node
 * cannot create, e.g. for another user id on a read-only file system) and `disabled`
 * (`NODE_DISABLE_COMPILE_CACHE=1`) carry Node's reason. In every case the server starts the same.
 */
export interface CompileCacheState {
  readonly status: 'enabled' | 'already enabled' | 'failed' | 'disabled';
  readonly directory?: string;
  readonly message?: string;
}

const STATUS: Readonly<Record<number, CompileCacheState['status']>> = {
  [constants.compileCacheStatus.ENABLED]: 'enabled',
  [constants.compileCacheStatus.ALREADY_ENABLED]: 'already enabled',
  [constants.compileCacheStatus.FAILED]: 'failed',
  [constants.compileCacheStatus.DISABLED]: 'disabled',
};

/**
 * Enables Node's compile cache in `serverDir`'s folder for every module loaded from now on: the
 * entry calls it before it imports the bundle. Node never throws here; it says what it did.
 */
export function enableServerCompileCache(serverDir: string): CompileCacheState {
  const { status, directory, message } = enableCompileCache(join(serverDir, COMPILE_CACHE_DIR));
  return {
    status: STATUS[status] ?? 'failed',
    ...(directory === undefined ? {} : { directory }),
    ...(message === undefined ? {} : { message }),
  };
}
