import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import { createBatchedStdout } from './log-destination.ts';

/**
 * Paths that may hold secrets if anything ever logs a raw request or response. Our own log
 * lines never include headers; this is the second fence (docs/security.md).
 */
export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  'headers["proxy-authorization"]',
  'headers["set-cookie"]',
];

export interface LoggerOptions {
  readonly level: Level | 'silent';
  readonly destination?: DestinationStream;
}

/**
 * An `err` that is an Error goes through pino's own serializer (type, message, stack, cause); one
 * that is already the fields to log (server-error-log.ts) is logged as it is, where pino's would
 * add `type: "Object"`, the class of the plain object holding them.
 */
function serializeErr(value: unknown): unknown {
  return value instanceof Error ? pino.stdSerializers.err(value) : value;
}

/**
 * The process's one pino logger: JSON lines, secrets removed, to stdout in one write per turn
 * of the event loop (./log-destination.ts).
 */
export function createLogger({ level, destination }: LoggerOptions): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, remove: true }, serializers: { err: serializeErr } }, destination ?? createBatchedStdout());
}
