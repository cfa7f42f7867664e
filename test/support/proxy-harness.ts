import { startServerEntry, type ServerProcess } from './server-process.ts';
import { PROXY_SERVER_ENTRY } from './proxy-global-setup.ts';

export type { Exit, ServerProcess } from './server-process.ts';

/** Starts the bundled proxy fixture server (production mode, a free port unless PORT is given). */
export function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  return startServerEntry(PROXY_SERVER_ENTRY, env);
}
