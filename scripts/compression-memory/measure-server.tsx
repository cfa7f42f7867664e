import { createApp } from '../../server/app.ts';
import { createHttpServer } from '../../server/lifecycle/http-server.ts';
import { createLogger } from '../../server/observability/logger.ts';
import { bigPageRoutes } from './big-page.tsx';
import { overrideBrotliWindow } from './brotli-window-override.ts';
import { isServerRequest, type ServerMemory } from './messages.ts';

/**
 * The measured server: the real app (its own compressInto) with the 1 MB pages, in its own
 * process so its memory is its own. The heap used and the RSS outside V8's heap are sampled
 * every few milliseconds; the parent reads the kernel's peak RSS itself. Answers
 * `memory` and `settle` (collect garbage, then the same numbers) over IPC.
 *
 * argv: the tail boundary's delay in ms; a brotli window (lgwin) to use, without a size hint,
 * instead of the app's own settings, or ''.
 */
const [tailMs = '300', lgwin = ''] = process.argv.slice(2);
if (lgwin !== '') overrideBrotliWindow(Number(lgwin));
const logger = createLogger({ level: 'warn', destination: { write: (line: string) => process.stderr.write(line) } });
const app = createApp({ app: { routes: bigPageRoutes(Number(tailMs)) }, logger, pages: { renderTimeoutMs: 30_000 } });
const server = createHttpServer(app, { keepAliveTimeoutMs: 1_000 });

let peakHeapUsed = 0;
let peakOutsideHeap = 0;
function sample(): void {
  const { rss, heapTotal, heapUsed } = process.memoryUsage();
  peakHeapUsed = Math.max(peakHeapUsed, heapUsed);
  // What V8's heap does not account for: native memory (zlib's among it) and code.
  peakOutsideHeap = Math.max(peakOutsideHeap, rss - heapTotal);
}
setInterval(sample, 5).unref();

function report(): ServerMemory {
  sample();
  return { heapUsed: process.memoryUsage().heapUsed, peakHeapUsed, peakOutsideHeap };
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
