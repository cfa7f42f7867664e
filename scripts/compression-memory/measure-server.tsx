import { createApp } from '../../server/app.ts';
import { createHttpServer } from '../../server/lifecycle/http-server.ts';
import { createLogger } from '../../server/observability/logger.ts';
import { bigPageRoutes } from './big-page.tsx';
import { isServerRequest, type ServerMemory } from './messages.ts';

/**
 * The measured server: the real app (its own compressInto) with the 1 MB page, in its own
 * process so its memory is its own. Heap and external memory are sampled every few
 * milliseconds; the parent reads the kernel's peak RSS itself. Answers `memory` and
 * `settle` (collect garbage, then the same numbers) over IPC.
 */
const logger = createLogger({ level: 'warn', destination: { write: (line: string) => process.stderr.write(line) } });
const app = createApp({ routes: bigPageRoutes(Number(process.argv[2] ?? 300)), logger, renderTimeoutMs: 30_000 });
const server = createHttpServer(app, { keepAliveTimeoutMs: 1_000 });

let peakHeapUsed = 0;
let peakExternal = 0;
function sample(): void {
  const { heapUsed, external } = process.memoryUsage();
  peakHeapUsed = Math.max(peakHeapUsed, heapUsed);
  peakExternal = Math.max(peakExternal, external);
}
setInterval(sample, 5).unref();

function report(): ServerMemory {
  sample();
  const { heapUsed, heapTotal, external } = process.memoryUsage();
  return { heapUsed, heapTotal, external, peakHeapUsed, peakExternal };
}

process.on('message', (message: unknown) => {
  if (!isServerRequest(message)) return;
  if (message === 'memory') {
    process.send?.(report());
    return;
  }
  server.closeIdleConnections();
  // Once the sockets' own callbacks have run: what is left then is what the server keeps.
  setTimeout(() => {
    const gc = globalThis.gc;
    if (gc === undefined) throw new Error('run with --expose-gc');
    gc();
    gc();
    process.send?.(report());
  }, 200);
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address !== null && typeof address === 'object') process.send?.({ port: address.port });
});
