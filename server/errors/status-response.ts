import type { Request, Response } from 'express';
import { setHtmlHeaders } from '../render/html-headers.ts';
import { statusMessage } from '../../shared/http-error.ts';
import type { StatusPages } from './status-pages.ts';

export interface StatusAnswer {
  readonly status: number;
  /** Only for 500: the digest that is also in the log. */
  readonly digest?: string;
  /** The host named on the 500 page. */
  readonly host?: string;
  /** Development only: message and stack. */
  readonly detail?: string | undefined;
}

export interface RenderedAnswer {
  readonly contentType: string;
  readonly body: string;
}

/**
 * A client that prefers JSON to HTML gets the same status as JSON (docs/status-pages.md).
 */
export function renderStatusAnswer(pages: StatusPages, answer: StatusAnswer, nonce: string, wantsJson: boolean): RenderedAnswer {
  const { status, digest } = answer;
  if (wantsJson) {
    const body = digest === undefined ? { status, message: statusMessage(status) } : { status, message: statusMessage(status), digest };
    return { contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) };
  }
  const body =
    status >= 500 && digest !== undefined
      ? pages.serverError({ nonce, host: answer.host ?? '', digest, detail: answer.detail })
      : pages.status(status, nonce);
  return { contentType: 'text/html; charset=utf-8', body };
}

export function prefersJson(req: Request): boolean {
  // Most requests never mention JSON: skip parsing their Accept header.
  const accept = req.headers.accept;
  if (accept === undefined || (!accept.includes('json') && !accept.includes('application/*'))) return false;
  // `accepts` returns the first listed type on ties and for `*/*`, so HTML wins unless JSON
  // is explicitly preferred.
  return req.accepts(['html', 'json']) === 'json';
}

export function sendStatusAnswer(req: Request, res: Response, pages: StatusPages, answer: StatusAnswer): void {
  const { contentType, body } = renderStatusAnswer(pages, answer, res.locals.cspNonce ?? '', prefersJson(req));
  res.status(answer.status);
  setHtmlHeaders(res);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Vary', 'Accept');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
