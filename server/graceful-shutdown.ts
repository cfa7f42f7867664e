import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { ReadinessState } from './readiness-state.ts';

export interface ShutdownOptions {
  readonly server: Server;
  readonly readiness: ReadinessState;
  readonly logger: Logger;
  /** Time for load balancers to see `/readyz` fail before we stop accepting. */
  readonly delayMs: number;
  /** After this, whatever is still open is cut and the process exits non-zero. */
  readonly deadlineMs: number;
  readonly exit: (code: number) => void;
}

/**
 * SPEC §9: readiness turns 503, wait the delay, stop accepting, let in-flight responses
 * (streams included) finish, close idle keep-alive connections, exit 0. Past the deadline
 * exit 1; a second signal exits at once.
 */
export function installGracefulShutdown({ server, readiness, logger, delayMs, deadlineMs, exit }: ShutdownOptions): void {
  let shuttingDown = false;

  function finish(code: number, message: string): void {
    logger.info({ exitCode: code }, message);
    logger.flush();
    exit(code);
  }

  function onSignal(signal: NodeJS.Signals): void {
    if (shuttingDown) {
      finish(130, `second ${signal}: exiting at once`);
      return;
    }
    shuttingDown = true;
    readiness.markShuttingDown();
    logger.info({ signal, delayMs, deadlineMs }, 'shutdown started');
    const deadline = setTimeout(() => {
      server.closeAllConnections();
      finish(1, 'shutdown deadline passed: open connections cut');
    }, delayMs + deadlineMs);
    deadline.unref();

    setTimeout(() => {
      server.close(() => {
        clearTimeout(deadline);
        finish(0, 'shutdown complete');
      });
      // Idle keep-alive sockets would hold close() open until they time out.
      server.closeIdleConnections();
    }, delayMs).unref();
  }

  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
