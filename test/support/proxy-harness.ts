import { FIXTURE_SERVER_ENTRY } from './fixture-server-build.ts';
import { startServerEntry, type ServerProcess } from './server-process.ts';

export type { Exit, ServerProcess } from './server-process.ts';

/** Starts the bundled fixture server on the product's client (production mode, a free port unless PORT is given). */
export function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  return startServerEntry(FIXTURE_SERVER_ENTRY, env);
}
