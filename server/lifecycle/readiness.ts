import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { HttpError } from '../../shared/api/http-error.ts';
import { isProbePath } from '../http/probe-paths.ts';
import type { AppReadiness } from './app-readiness.ts';

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

/** Whether the process is saturated now (overload-guard.ts): `/readyz` says so with its 503. */
export interface Saturation {
  saturation(): string | undefined;
}

export const neverSaturated: Saturation = { saturation: () => undefined };

/** The probe's body: `ok`, or why the instance should get no traffic now. */
function sendProbe(res: Response, notReady: string | undefined): void {
  // The type as Express would spell it, set directly: res.type() would look it up in mime-types.
  res
    .status(notReady === undefined ? 200 : 503)
    .set({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' })
    .send(notReady === undefined ? 'ok\n' : `${notReady}\n`);
}

/**
 * Another method on a probe: 405 with `Allow: GET, HEAD` and the status page, as a page answers
 * (the error handler renders it). Without this, Express would answer OPTIONS itself with 200.
 */
function probeMethodNotAllowed(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Allow', 'GET, HEAD');
  next(new HttpError(405));
}

/** A probe's path as Express's routes match one: in any case, with or without a trailing slash. */
export function probeOf(path: string): string | undefined {
  const lower = path.toLowerCase();
  const bare = lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
  return isProbePath(bare) ? bare : undefined;
}

/**
 * `/healthz`: the process is alive. `/readyz`: it takes traffic, 503 once shutdown began,
 * while the process is saturated (`overloaded: <reason>`) and while the app's own check fails
 * (`readiness check failed: <reason>`, app-readiness.ts), so a balancer sends elsewhere;
 * `/healthz` never asks the app, so an orchestrator does not restart an instance whose database
 * is down. A plain
 * middleware, not a Router: every request passes it, and a mounted Router's dispatch allocates
 * a measurable share of a small answer's memory (measured on the 404 under load).
 */
export function createHealthProbes(readiness: Readiness, load: Saturation = neverSaturated, app?: AppReadiness): RequestHandler {
  return function answerProbe(req: Request, res: Response, next: NextFunction) {
    const probe = probeOf(req.path);
    if (probe === undefined) {
      next();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      probeMethodNotAllowed(req, res, next);
      return;
    }
    if (probe === '/healthz') {
      sendProbe(res, undefined);
      return;
    }
    const reason = load.saturation();
    const notReady = !readiness.isReady() ? 'shutting down' : reason === undefined ? undefined : `overloaded: ${reason}`;
    if (notReady !== undefined || app === undefined) {
      sendProbe(res, notReady);
      return;
    }
    void app.notReady().then((appReason) => sendProbe(res, appReason));
  };
}
