import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Metrics } from './metrics.ts';

/** The route label of a request no route claimed: raw paths would explode cardinality. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Counts every request by route pattern once it ends, finished or aborted. */
export function createMetricsMiddleware(metrics: Metrics): RequestHandler {
  return function recordMetrics(req: Request, res: Response, next: NextFunction) {
    const started = performance.now();
    metrics.inFlight.inc();
    res.on('close', function onRequestClosed() {
      metrics.inFlight.dec();
      const labels = { route: res.locals.routePattern ?? UNMATCHED_ROUTE, method: req.method, status: String(res.statusCode) };
      metrics.requests.inc(labels);
      metrics.duration.observe(labels, (performance.now() - started) / 1000);
    });
    next();
  };
}
