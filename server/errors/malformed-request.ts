import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { HttpError } from '../../shared/api/http-error.ts';
import { isAsteriskForm, unreadableTargetOf } from '../http/request-target.ts';

/**
 * RFC 9112 §3.2 / RFC 3986 §3.2.2: `Host = uri-host [ ":" port ]`, where uri-host is an
 * IP-literal in brackets or a reg-name / IPv4 address of unreserved, pct-encoded and sub-delims.
 */
const VALID_HOST = /^(?:\[[0-9A-Fa-f:.]+\]|(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+)(?::([0-9]{0,5}))?$/;

/**
 * What the grammar admits but no URL parser takes: a port past 65535, a percent-encoded byte in
 * the host (`a%2F.example`). Express would hand such a host on as `req.host`, and an absolute URL
 * made from it would fail later, after an action had run. The port VALID_HOST captures is compared
 * as a number; only a host with a `%` is parsed, so the common host, with a port or without,
 * costs one regular expression and no URL, which parsing every request's would.
 */
function isValidHost(host: string): boolean {
  const match = VALID_HOST.exec(host);
  if (match === null) return false;
  const port = match[1];
  if (port !== undefined && Number(port) > 65_535) return false;
  return !host.includes('%') || URL.parse(`http://${host}`) !== null;
}

/** Longer targets get 414; Node's own header limit (16 KiB) answers 431 beyond that. */
export const MAX_URL_LENGTH = 8_192;

/** No route here reads a body larger than this, unless the app's uploads allow more (createMalformedRequestCheck); say so before anything reads it. */
export const MAX_BODY_BYTES = 1_048_576;

/** Decoded text no page path can legitimately hold: NUL and C0/DEL controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this expression's purpose
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

export interface Malformation {
  readonly status: 400 | 413 | 414;
  readonly problem: string;
}

function bad(problem: string): Malformation {
  return { status: 400, problem };
}

/** Origin-form (`/path`) or absolute-form (`http://host/path`); `*` is handled before this. */
const REQUEST_TARGET = /^(?:\/|https?:\/\/)/i;

/** What is wrong with a request, or `undefined` when it is fine. */
export function findMalformation(req: Pick<Request, 'url' | 'rawHeaders' | 'httpVersion' | 'headers'>, maxBodyBytes: number = MAX_BODY_BYTES): Malformation | undefined {
  if (req.url.length > MAX_URL_LENGTH) return { status: 414, problem: 'request target too long' };
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBodyBytes) return { status: 413, problem: 'body too large' };
  if (!REQUEST_TARGET.test(req.url)) return bad('request target is not origin-form or absolute-form');
  // RFC 9112 §6.3: a body whose length cannot be known (chunked not last) must be refused.
  const codings = req.headers['transfer-encoding'];
  if (codings !== undefined && !/(?:^|,)\s*chunked\s*$/i.test(codings)) return bad('transfer coding without chunked last');

  const hosts = countHostHeaders(req.rawHeaders);
  // Node keeps the first of several Host headers and accepts any text; RFC 9112 §3.2 says 400.
  if (hosts > 1) return bad('more than one Host header');
  const host = req.headers.host;
  if (hosts === 1 && (host === undefined || !isValidHost(host))) return bad('invalid Host header');
  if (hosts === 0 && req.httpVersion !== '1.0') return bad('missing Host header');

  const url = req.url;
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  // Express decodes only route parameters, so a parameterless path never reports bad escapes.
  // Without a `%` there is nothing to decode (Node's parser already refuses raw control bytes).
  if (path.includes('%')) {
    const decodedPath = decodes(path);
    if (decodedPath === undefined) return bad('undecodable percent-encoding in path');
    if (CONTROL_CHARACTER.test(decodedPath)) return bad('control character in path');
  }
  const query = queryStart === -1 ? '' : url.slice(queryStart + 1);
  if (query.includes('%') && decodes(query.replaceAll('+', ' ')) === undefined) {
    return bad('undecodable percent-encoding in query');
  }
  return undefined;
}

/**
 * Answers malformed requests before any route sees them (docs/status-pages.md): 400, or 413/414 for sizes.
 * `OPTIONS *` (RFC 9110 §9.3.7) asks about the server as a whole: it gets the methods we allow.
 * `maxBodyBytes` is the largest declared body any route reads: `MAX_BODY_BYTES`, or an app's
 * uploads' `maxBodyBytes` above it.
 */
export function createMalformedRequestCheck(maxBodyBytes: number): RequestHandler {
  return function rejectMalformedRequests(req: Request, res: Response, next: NextFunction): void {
    if (isAsteriskForm(req)) {
      if (req.method === 'OPTIONS') {
        res.status(204).setHeader('Allow', 'GET, HEAD');
        res.end();
        return;
      }
      next(new HttpError(400, 'Bad Request: asterisk-form outside OPTIONS'));
      return;
    }
    // Set aside by the HTTP server (server/http/request-target.ts): the router could not have read it.
    const unreadableTarget = unreadableTargetOf(req);
    const malformation = unreadableTarget === undefined ? findMalformation(req, maxBodyBytes) : bad(unreadableTarget);
    if (malformation === undefined) {
      next();
      return;
    }
    req.log.info({ problem: malformation.problem }, 'malformed request');
    next(new HttpError(malformation.status, malformation.problem));
  };
}
