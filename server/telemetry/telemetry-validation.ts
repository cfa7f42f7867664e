import { VITAL_NAMES, VITAL_RATINGS, type ClientErrorReport, type VitalName, type VitalRating, type VitalReport } from '../../shared/protocol/telemetry.ts';
import { VALID_REQUEST_ID } from '../observability/request-id.ts';

/** Field limits: generous for real reports, tight enough that a log line stays small. */
const MAX_ID = 128;
const MAX_ROUTE = 256;
const MAX_NAME = 128;
const MAX_MESSAGE = 1_024;
const MAX_STACK = 4_096;

/** Plausible upper bounds; a value past them is a broken or hostile client. */
const MAX_VALUE: Readonly<Record<VitalName, number>> = { LCP: 600_000, INP: 600_000, FCP: 600_000, TTFB: 600_000, CLS: 100 };

export type Validation<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function boundedString(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= max;
}

function allowedValue<T extends string>(allowed: readonly T[], value: unknown): T | undefined {
  return allowed.find((candidate) => candidate === value);
}

function onlyKeys(record: Record<string, unknown>, allowed: readonly string[]): boolean {
  return Object.keys(record).every((key) => allowed.includes(key));
}

/** Strict: known keys only, known names, finite numbers in range, bounded strings. */
export function validateVital(body: unknown, knownRoutes: ReadonlySet<string>): Validation<VitalReport> {
  if (!isRecord(body)) return { ok: false, problem: 'not an object' };
  if (!onlyKeys(body, ['name', 'value', 'rating', 'id', 'route', 'requestId'])) return { ok: false, problem: 'unknown field' };
  const name: VitalName | undefined = allowedValue(VITAL_NAMES, body.name);
  if (name === undefined) return { ok: false, problem: 'unknown metric name' };
  const { value } = body;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_VALUE[name]) {
    return { ok: false, problem: 'value out of range' };
  }
  const rating: VitalRating | undefined = allowedValue(VITAL_RATINGS, body.rating);
  if (rating === undefined) return { ok: false, problem: 'unknown rating' };
  if (!boundedString(body.id, MAX_ID)) return { ok: false, problem: 'bad id' };
  if (!boundedString(body.route, MAX_ROUTE) || !knownRoutes.has(body.route)) return { ok: false, problem: 'unknown route' };
  if (typeof body.requestId !== 'string' || !VALID_REQUEST_ID.test(body.requestId)) return { ok: false, problem: 'bad request id' };
  return { ok: true, value: { name, value, rating, id: body.id, route: body.route, requestId: body.requestId } };
}

export function validateClientError(body: unknown, knownRoutes: ReadonlySet<string>): Validation<ClientErrorReport> {
  if (!isRecord(body)) return { ok: false, problem: 'not an object' };
  if (!onlyKeys(body, ['kind', 'name', 'message', 'stack', 'digest', 'route', 'requestId'])) return { ok: false, problem: 'unknown field' };
  const kind = allowedValue(['uncaught', 'recoverable'] as const, body.kind);
  if (kind === undefined) return { ok: false, problem: 'unknown kind' };
  if (!boundedString(body.name, MAX_NAME)) return { ok: false, problem: 'bad name' };
  if (typeof body.message !== 'string' || body.message.length > MAX_MESSAGE) return { ok: false, problem: 'bad message' };
  if (body.stack !== undefined && (typeof body.stack !== 'string' || body.stack.length > MAX_STACK)) return { ok: false, problem: 'bad stack' };
  if (body.digest !== undefined && (typeof body.digest !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(body.digest))) {
    return { ok: false, problem: 'bad digest' };
  }
  if (!boundedString(body.route, MAX_ROUTE) || !knownRoutes.has(body.route)) return { ok: false, problem: 'unknown route' };
  if (typeof body.requestId !== 'string' || !VALID_REQUEST_ID.test(body.requestId)) return { ok: false, problem: 'bad request id' };
  const report: ClientErrorReport = {
    kind,
    name: body.name,
    message: body.message,
    route: body.route,
    requestId: body.requestId,
    ...(typeof body.stack === 'string' ? { stack: body.stack } : {}),
    ...(typeof body.digest === 'string' ? { digest: body.digest } : {}),
  };
  return { ok: true, value: report };
}
