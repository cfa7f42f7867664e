import type { Server } from 'node:http';
import { constants } from 'node:os';
import type { Logger } from 'pino';
import type { ReadinessState } from './readiness.ts';

export interface ShutdownOptions {
  readonly server: Server;
  /**
   * Side listeners (the metrics port) closed together with `server`. They never hold the exit:
   * when `server` has finished, the process ends.
   */
  readonly alsoClose?: readonly Server[];
  /**
   * Closes the public port's other listening sockets (listen-sockets.ts) as `server` stops
   * accepting; resolves once the connections they took have ended, which the exit waits for too.
   */
  readonly stopAccepting?: () => Promise<void>;
  readonly readiness: ReadinessState;
  readonly logger: Logger;
  /** Time for load balancers to see `/readyz` fail before we stop accepting. */
  readonly delayMs: number;
  /** After the delay, in-flight responses get this long; then they are cut and we exit 1. */
  readonly deadlineMs: number;
  /**
   * The app's `onClose` (its pool's end), awaited once the server has drained, before the exit;
   * within the same deadline. One that throws is logged and the exit code is 1.
   */
  readonly onClose?: () => Promise<void>;
  readonly exit: (code: number) => void;
}

/** How the process ended, as its exit code says. */
export const SHUTDOWN_EXIT = {
  /** Every response finished within the deadline. */
  clean: 0,
  /** The deadline passed: open connections were cut (or the app's `onClose` failed). */
  deadline: 1,
} as const;

/** How often connections that went idle after the listener closed are looked for. */
const IDLE_SWEEP_MS = 100;

/** 128 + the signal's number, the shell's convention for "ended by a signal" (130 for SIGINT). */
function forcedExitCode(signal: NodeJS.Signals): number {
  return 128 + constants.signals[signal];
}

/**
 * docs/deployment.md: readiness turns 503, wait the delay, stop accepting (the metrics listener
 * too), let in-flight responses (streams included) finish, close idle keep-alive connections,
 * exit 0. Past the deadline exit 1; a second signal exits at once with 128 + its number.
 *
 * Node keeps serving on open keep-alive connections after `server.close()` and still
 * advertises keep-alive, so `close()` alone would wait for every client's idle timeout. Once
 * readiness is off, every answer whose head is written from then on says `Connection: close`
 * (installResponseHead in http/response-head.ts), requests that came before the signal
 * included, so clients and proxies leave without racing our close. A connection that sent
 * nothing since the signal never hears that header: it is closed the moment the listener
 * closes. A stream whose head went out before the signal had already promised keep-alive, so
 * after the delay connections that fall idle are closed as they appear.
 */
export function installGracefulShutdown({
  server,
  alsoClose = [],
  stopAccepting: closeOtherSockets,
  readiness,
  logger,
  delayMs,
  deadlineMs,
  onClose,
  exit,
}: ShutdownOptions): void {
  let shuttingDown = false;
  let cutting = false;
  let finished = false;

  function finish(code: number, message: string): void {
    if (finished) return;
    finished = true;
    logger.info({ exitCode: code }, message);
    logger.flush();
    exit(code);
  }

  /**
   * Cuts every connection left, then exits once the responses have heard it: their `close`
   * handlers (the request's log line, its metrics, the render's abort) run when the sockets'
   * handles have closed, and an exit in the same turn as the cut left those requests unlogged and
   * uncounted. A destroyed socket's handle closes in the event loop's close phase, which comes
   * after this turn's immediates (and the listener's own `close` event, which comes first); the
   * exit waits for the immediate of the turn after.
   */
  function cutAndFinish(code: number, message: string): void {
    // The listener's close, which the cut completes, must not report a clean end instead.
    cutting = true;
    server.closeAllConnections();
    for (const other of alsoClose) other.closeAllConnections();
    setImmediate(() => setImmediate(() => finish(code, message)));
  }

  /** The app's `onClose`: whether it closed; its error logged once. */
  async function closeApp(): Promise<boolean> {
    if (onClose === undefined) return true;
    try {
      await onClose();
      logger.info('app closed');
      return true;
    } catch (error) {
      logger.error({ err: error }, 'app onClose failed');
      return false;
    }
  }

  function stopAccepting(deadline: NodeJS.Timeout): void {
    const others = closeOtherSockets?.() ?? Promise.resolve();
    server.close(() => {
      // The connections the other sockets took are the server's too, but not counted by its close.
      void others.then(async () => {
        clearInterval(sweep);
        if (cutting) return;
        // Every answer is out: now the app closes what they used (its pool), still under the deadline.
        const closed = await closeApp();
        clearTimeout(deadline);
        if (cutting) return;
        if (closed) finish(SHUTDOWN_EXIT.clean, 'shutdown complete');
        else finish(SHUTDOWN_EXIT.deadline, 'shutdown complete, but the app did not close cleanly');
      });
    });
    // Connections idle right now go at once (Node ≥ 19 also does it inside close(); said here so
    // it does not hang on that), then those that fall idle, as they do.
    server.closeIdleConnections();
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    sweep.unref();
    for (const other of alsoClose) {
      other.close();
      other.closeIdleConnections();
    }
    logger.info('listener closed: finishing in-flight responses');
  }

  function onSignal(signal: NodeJS.Signals): void {
    if (shuttingDown) {
      cutAndFinish(forcedExitCode(signal), `second ${signal}: exiting at once`);
      return;
    }
    shuttingDown = true;
    readiness.markShuttingDown();
    logger.info({ signal, delayMs, deadlineMs }, 'shutdown started');
    const deadline = setTimeout(() => cutAndFinish(SHUTDOWN_EXIT.deadline, 'shutdown deadline passed: open connections cut'), delayMs + deadlineMs);
    deadline.unref();
    setTimeout(() => stopAccepting(deadline), delayMs).unref();
  }

  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
