import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { HttpError } from '../../shared/api/http-error.ts';
import { clientAddress } from './client-address.ts';

export interface RateLimitOptions {
  /** Requests one client address may make per window. */
  readonly limit: number;
  readonly windowMs: number;
  /** Bounds memory under a flood of distinct addresses; the oldest windows go first. */
  readonly maxClients?: number;
  readonly now?: () => number;
}

interface Window {
  started: number;
  count: number;
}

/**
 * A fixed-window counter per client address (`req.ip`, so it follows `trust proxy`, but only
 * when it is an IP address: anything else counts against the connection's peer, so made-up
 * `X-Forwarded-For` text cannot mint keys). In memory, per instance: with several instances
 * each allows `limit`, which bounds abuse of a small beacon endpoint well enough without a
 * shared store.
 */
export function createRateLimit({ limit, windowMs, maxClients = 10_000, now = Date.now }: RateLimitOptions): RequestHandler {
  const windows = new Map<string, Window>();
  return function rateLimit(req: Request, res: Response, next: NextFunction) {
    // Stryker disable next-line StringLiteral: equivalent; the key of requests without an address is any one text no address takes, '' as well as 'unknown'
    const key = clientAddress(req) ?? 'unknown';
    const time = now();
    let window = windows.get(key);
    if (window === undefined || time - window.started >= windowMs) {
      windows.delete(key);
      if (windows.size >= maxClients) {
        const oldest = windows.keys().next();
        if (oldest.done !== true) windows.delete(oldest.value);
      }
      window = { started: time, count: 0 };
      windows.set(key, window);
    }
    window.count += 1;
    if (window.count > limit) {
      res.setHeader('Retry-After', Math.ceil((window.started + windowMs - time) / 1000));
      next(new HttpError(429));
      return;
    }
    next();
  };
}
