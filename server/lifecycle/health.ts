import type { Request, Response } from 'express';
import { Router } from 'express';

/** Readiness as the server's lifecycle sees it; shutdown flips it (docs/deployment.md). */
export interface Readiness {
  isReady(): boolean;
}

export const alwaysReady: Readiness = { isReady: () => true };

const PROBE_PATHS = new Set(['/healthz', '/readyz']);

export function isProbePath(path: string): boolean {
  return PROBE_PATHS.has(path);
}

function sendProbe(res: Response, ok: boolean): void {
  res.status(ok ? 200 : 503).type('text/plain').set('Cache-Control', 'no-store').send(ok ? 'ok\n' : 'shutting down\n');
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
  return router;
}
