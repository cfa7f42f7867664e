import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import type { HeaderPair } from '../http/response-head.ts';
import { randomText } from './random-pool.ts';

const NONCE_BYTES = 16;

/** 128 bits from the CSPRNG (drawn in batches: random-pool.ts), base64: the CSP nonce of one response (docs/security.md). Never reused. */
export function createNonce(): string {
  return randomText(NONCE_BYTES, 'base64');
}

/**
 * Everything helmet sets apart from the CSP is the same for every request: let helmet set it
 * once on a response that goes nowhere, and keep the result. A request then copies the list
 * instead of running helmet's eleven middlewares. Kept for what it saves, measured, and held to
 * what helmet itself sets by test/unit/dependency-seams.test.ts
 * (docs/design-costs.md#where-the-framework-goes-around-a-dependency).
 */
export function helmetStaticHeaders(): readonly HeaderPair[] {
  const probe = new ServerResponse(new IncomingMessage(new Socket()));
  helmet({ contentSecurityPolicy: false })(probe.req, probe, () => undefined);
  return Object.entries(probe.getHeaders()).map(([name, value]) => [name, String(value)] as const);
}

/**
 * Powerful browser features no page of ours uses, turned off for our pages and anything they
 * embed (docs/security.md). Only features Chromium knows: it warns in the console about any
 * other name, and the browser tests allow no console warning.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'browsing-topics',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

let defaults: readonly HeaderPair[] | undefined;

/**
 * helmet's headers and our Permissions-Policy, for every answer, status and error pages
 * included (server/http/response-head.ts adds them, or the answer's prepared head holds
 * them). Strict-Transport-Security is sent over plain HTTP too, where browsers ignore it:
 * sending it only to requests a trusted proxy marks https would lose it whenever TRUST_PROXY
 * is unset or wrong (docs/security.md).
 */
export function securityHeaderDefaults(): readonly HeaderPair[] {
  defaults ??= [...helmetStaticHeaders(), ['Permissions-Policy', PERMISSIONS_POLICY]];
  return defaults;
}

/**
 * A fresh nonce for every request, in `res.locals.cspNonce`: React and our inline tags carry it,
 * and the page's Content-Security-Policy allows it when the answer's head is written.
 */
export function assignNonce(_req: Request, res: Response, next: NextFunction): void {
  res.locals.cspNonce = createNonce();
  next();
}
