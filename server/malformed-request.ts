import type { NextFunction, Request, Response } from 'express';
import { HttpError } from '../shared/http-error.ts';

/**
 * RFC 9112 §3.2 / RFC 3986 §3.2.2: `Host = uri-host [ ":" port ]`, where uri-host is an
 * IP-literal in brackets or a reg-name / IPv4 address of unreserved, pct-encoded and sub-delims.
 */
const VALID_HOST =
  /^(?:\[[0-9A-Fa-f:.]+\]|(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+)(?::[0-9]{0,5})?$/;

/** Decoded text no page path can legitimately hold: NUL and C0/DEL controls. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

function decodes(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function countHostHeaders(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]?.toLowerCase() === 'host') count += 1;
  }
  return count;
}

/** Why a request is malformed, or `undefined` when it is fine. Pure, so tests can call it. */
export function findMalformation(req: Pick<Request, 'url' | 'rawHeaders' | 'httpVersion' | 'headers'>): string | undefined {
  const hosts = countHostHeaders(req.rawHeaders);
  // Node keeps the first of several Host headers and accepts any text; RFC 9112 §3.2 says 400.
  if (hosts > 1) return 'more than one Host header';
  const host = req.headers.host;
  if (hosts === 1 && (host === undefined || !VALID_HOST.test(host))) return 'invalid Host header';
  if (hosts === 0 && req.httpVersion !== '1.0') return 'missing Host header';

  const url = req.url;
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  // Express decodes only route parameters, so a parameterless path never reports bad escapes.
  const decodedPath = decodes(path);
  if (decodedPath === undefined) return 'undecodable percent-encoding in path';
  if (CONTROL_CHARACTER.test(decodedPath)) return 'control character in path';
  if (queryStart !== -1 && decodes(url.slice(queryStart + 1).replaceAll('+', ' ')) === undefined) {
    return 'undecodable percent-encoding in query';
  }
  return undefined;
}

/** Answers malformed requests with 400 before any route sees them (SPEC §4). */
export function rejectMalformedRequests(req: Request, _res: Response, next: NextFunction): void {
  const problem = findMalformation(req);
  next(problem === undefined ? undefined : new HttpError(400, `Bad Request: ${problem}`));
}
