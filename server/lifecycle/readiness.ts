import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Router } from 'express';
import { HttpError } from '../../shared/http-error.ts';

/**
 * Readiness as the server's lifecycle sees it: ready from start until shutdown begins
 * (docs/deployment.md). `/readyz` reads it, and a draining instance tells clients to leave.
 */
export interface Readiness {
  isReady(): boolean;
}

export const alwaysReady: Readiness = { isReady: () => true };

/** The one readiness of a running process; graceful shutdown flips it. */
export class ReadinessState implements Readiness {
  #ready = true;

  isReady(): boolean {
    return this.#ready;
  }

  markShuttingDown(): void {
    this.#ready = false;
  }
}

const PROBE_PATHS = new Set(['/healthz', '/readyz']);

export function isProbePath(path: string): boolean {
  return PROBE_PATHS.has(path);
}

function sendProbe(res: Response, ok: boolean): void {
  res.status(ok ? 200 : 503).type('text/plain').set('Cache-Control', 'no-store').send(ok ? 'ok\n' : 'shutting down\n');
}

/**
 * Another method on a probe: 405 with `Allow: GET, HEAD` and the status page, as a page answers
 * (the error handler renders it). Without this, Express would answer OPTIONS itself with 200.
 */
function probeMethodNotAllowed(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Allow', 'GET, HEAD');
  next(new HttpError(405));
}

/** `/healthz`: the process is alive. `/readyz`: it takes traffic, 503 once shutdown began. */
export function createHealthRouter(readiness: Readiness): Router {
  const router = Router();
  router.get('/healthz', function healthz(_req: Request, res: Response) {
    sendProbe(res, true);
  });
  router.get('/readyz', function readyz(_req: Request, res: Response) {
    sendProbe(res, readiness.isReady());
  });
  router.all([...PROBE_PATHS], probeMethodNotAllowed);
  return router;
}

/**
 * Once shutdown has begun, every answer carries `Connection: close`, so proxies stop reusing
 * connections to this instance while it still serves. Closing idle keep-alive sockets later
 * would race a proxy sending its next request on one; by then none are left to race.
 */
export function createConnectionDrain(readiness: Readiness): RequestHandler {
  return function drainConnections(_req: Request, res: Response, next: NextFunction) {
    if (!readiness.isReady()) res.setHeader('Connection', 'close');
    next();
  };
}
