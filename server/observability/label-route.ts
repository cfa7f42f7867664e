import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Names the route pattern of answers a page route gives besides the page (405, actions) for logs and metrics. */
export function labelRoute(pattern: string): RequestHandler {
  return function setRoutePattern(_req: Request, res: Response, next: NextFunction) {
    res.locals.routePattern = pattern;
    next();
  };
}
