import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { HttpError } from '../../shared/http-error.ts';
import { CLIENT_ERRORS_ENDPOINT, TELEMETRY_BODY_LIMIT_BYTES, VITALS_ENDPOINT } from '../../shared/telemetry.ts';
import type { Metrics } from '../observability/metrics.ts';
import { createRateLimit } from '../security/rate-limit.ts';
import { validateClientError, validateVital, type Validation } from './telemetry-validation.ts';

export interface TelemetryOptions {
  /** Route patterns a report may name; anything else is rejected. */
  readonly routePatterns: readonly string[];
  readonly metrics: Metrics | undefined;
  /** Reports per client address per minute. */
  readonly ratePerMinute: number;
}

function methodNotAllowed(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Allow', 'POST');
  next(new HttpError(405));
}

function accept<T>(validate: (body: unknown) => Validation<T>, handle: (req: Request, value: T) => void) {
  return function acceptReport(req: Request, res: Response, next: NextFunction) {
    const result = validate(req.body);
    if (!result.ok) {
      req.log.info({ problem: result.problem, path: req.path }, 'telemetry rejected');
      next(new HttpError(400));
      return;
    }
    handle(req, result.value);
    res.status(204).end();
  };
}

/**
 * The beacon endpoints of docs/observability.md: POST only, small JSON bodies (sendBeacon sends strings as
 * text/plain, so both types are parsed), strict validation, 204 on success, rate limited.
 */
export function createTelemetryRouter({ routePatterns, metrics, ratePerMinute }: TelemetryOptions): Router {
  const known = new Set(routePatterns);
  const router = Router();
  const parse = express.json({ limit: TELEMETRY_BODY_LIMIT_BYTES, type: ['application/json', 'text/plain'], strict: true });
  const limit = createRateLimit({ limit: ratePerMinute, windowMs: 60_000 });
  const requireJson = function requireJsonBody(req: Request, _res: Response, next: NextFunction) {
    next(req.is(['application/json', 'text/plain']) === false ? new HttpError(415) : undefined);
  };

  router.post(
    VITALS_ENDPOINT,
    limit,
    requireJson,
    parse,
    accept(
      (body) => validateVital(body, known),
      (req, vital) => {
        req.log.info({ vital }, 'web vital');
        metrics?.observeVital(vital);
      },
    ),
  );
  router.post(
    CLIENT_ERRORS_ENDPOINT,
    limit,
    requireJson,
    parse,
    accept(
      (body) => validateClientError(body, known),
      (req, report) => {
        // Anyone can post here, so a report is a warning about a visitor's browser, not an error of ours.
        req.log.warn({ clientError: report, digest: report.digest, pageRequestId: report.requestId }, 'client error report');
      },
    ),
  );
  router.all([VITALS_ENDPOINT, CLIENT_ERRORS_ENDPOINT], methodNotAllowed);
  return router;
}
