import { unitRoutes } from '../../test/support/pages.tsx';
import { createApp } from '../../server/app.ts';
import { createHttpServer } from '../../server/lifecycle/http-server.ts';
import { createLogger } from '../../server/observability/logger.ts';

/**
 * The soak's server: the real app with the streaming fixture pages, in its own process so
 * its heap and handles are its own. It answers the parent's `measure` over IPC.
 */
let errorLines = 0;
let lines = 0;
const logger = createLogger({
  level: 'info',
  destination: {
    write(line: string) {
      lines += 1;
      if (line.includes('"level":50') || line.includes('"level":60')) {
        errorLines += 1;
        process.stderr.write(line);
      }
    },
  },
});
const app = createApp({ app: { routes: unitRoutes(Number(process.env.SOAK_BOUNDARY_MS ?? 20)) }, logger, pages: { renderTimeoutMs: 5_000 } });
const server = createHttpServer(app, { keepAliveTimeoutMs: 1_000 });

function collect(): void {
  const gc = globalThis.gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  for (let i = 0; i < 3; i += 1) gc();
}

process.on('message', (message: unknown) => {
  if (message !== 'measure') return;
  // Idle keep-alive sockets are the client's choice, not a leak: close them before counting.
  server.closeIdleConnections();
  // Measured from an immediate once the timer is done, so our own timer is not counted.
  setTimeout(
    () =>
      setImmediate(() => {
        collect();
        process.send?.({
          heapUsed: process.memoryUsage().heapUsed,
          resources: process.getActiveResourcesInfo(),
          errorLines,
          lines,
        });
      }),
    200,
  );
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address !== null && typeof address === 'object') process.send?.({ port: address.port });
});
