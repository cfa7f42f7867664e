import { pino, type DestinationStream, type Level, type Logger, type LoggerOptions as PinoOptions } from 'pino';
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

/**
 * What an app may set of its logger (`defineApp({ logger })`, docs/observability.md#the-apps-logger):
 * pino's options of the same names. Its redaction adds to the framework's, never replaces it.
 */
export interface AppLoggerOptions {
  /** More paths to remove from every line (pino's `redact` paths: `'user.email'`, `'body.card'`); cookies and authorization stay removed. */
  readonly redact?: readonly string[] | undefined;
  /** Fields added to every line (a trace id of the current request's span): pino's `mixin`; a line's own fields win over them. */
  readonly mixin?: PinoOptions['mixin'] | undefined;
  /** The level instead of `LOG_LEVEL`; leave it out and `LOG_LEVEL` decides. */
  readonly level?: Level | 'silent' | undefined;
  /** Where lines go instead of stdout (pino's destination: a file, a transport, a stream). */
  readonly destination?: DestinationStream | undefined;
}

export interface LoggerOptions {
  readonly level: Level | 'silent';
  /** Default: stdout, in one write per turn of the event loop. */
  readonly destination?: DestinationStream | undefined;
  /** The app's redaction paths and mixin (its level and destination are chosen by the caller). */
  readonly app?: Pick<AppLoggerOptions, 'redact' | 'mixin'> | undefined;
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
export function createLogger({ level, destination, app }: LoggerOptions): Logger {
  // The framework's paths first and always: an app's list only adds to them.
  const paths = [...REDACTED_PATHS, ...(app?.redact ?? [])];
  const mixin = app?.mixin === undefined ? {} : { mixin: app.mixin };
  return pino({ level, redact: { paths, remove: true }, serializers: { err: serializeErr }, ...mixin }, destination ?? createBatchedStdout());
}
