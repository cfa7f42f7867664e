import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Readiness } from './health.ts';

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
