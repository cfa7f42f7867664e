import type { Logger } from 'pino';
import { createDigest } from '../observability/digest.ts';

/** The exit code of a process ended by an error nothing handled: Node's own for that case. */
export const CRASH_EXIT = 1;

/**
 * An error no request owns (thrown in a timer or an event handler, a promise nobody awaited)
 * still ends the process, as Node would end it: after such an error its state is unknown, and an
 * instance that restarts is safer than one that limps on. What changes is what it leaves: one
 * `fatal` JSON line with the error, its stack and a digest, written before the exit, where Node
 * prints a bare stack on stderr that a log pipeline reads as loose lines of text, if at all.
 * `origin` says which it was: `uncaughtException`, or `unhandledRejection` (which Node raises
 * as an uncaught exception since version 15).
 */
export function installCrashLog(logger: Logger, exit: (code: number) => void): void {
  process.on('uncaughtException', function logCrash(error: unknown, origin: NodeJS.UncaughtExceptionOrigin) {
    logger.fatal({ err: error, digest: createDigest(), origin }, 'process crashed: an error reached no handler');
    exit(CRASH_EXIT);
  });
}
