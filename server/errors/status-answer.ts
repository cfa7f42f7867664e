import type { Request, Response } from 'express';
import { prefersJson } from '../http/prefers-json.ts';
import { writePreparedHead } from '../http/response-head.ts';
import type { PreparedAnswer, StatusLanguage, StatusPages } from './status-pages.ts';

export interface StatusAnswer {
  readonly status: number;
  /** Only for 500 (and 503 from `serviceUnavailable()`): the digest that is also in the log. */
  readonly digest?: string;
  /** The host named on the 500 page. */
  readonly host?: string;
  /** Development only: message and stack. */
  readonly detail?: string | undefined;
}

/**
 * The answer's body and headers. A client that prefers JSON to HTML gets the same status as
 * JSON (docs/status-pages.md). Apart from a 500 (host and digest) and pages that carry
 * analytics scripts (the nonce), the answer was prepared once and is the same for every request
 * in its language.
 */
export function renderStatusAnswer(pages: StatusPages, answer: StatusAnswer, nonce: string, wantsJson: boolean, language?: StatusLanguage): PreparedAnswer {
  const { status, digest } = answer;
  if (status >= 500 && digest !== undefined) {
    const body = wantsJson ? pages.json(status, language, digest) : pages.serverError({ nonce, host: answer.host ?? '', digest, status, detail: answer.detail }, language);
    return pages.answer(body, wantsJson, nonce);
  }
  return pages.prepared(status, wantsJson, language) ?? pages.answer(pages.status(status, nonce, language), wantsJson, nonce);
}

/**
 * Sends a status answer with its prepared head. Headers set before it stay (`Allow`,
 * `Retry-After`); the answer's own replace any of the same name, a page's
 * Content-Security-Policy included (docs/security.md).
 */
export function sendStatusAnswer(req: Request, res: Response, pages: StatusPages, answer: StatusAnswer): void {
  const { head, body } = renderStatusAnswer(pages, answer, res.locals.cspNonce ?? '', prefersJson(req), pages.language(req));
  writePreparedHead(res, answer.status, head);
  res.end(body);
}
