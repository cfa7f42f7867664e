import type { SiteHead } from '../../shared/head.ts';
import { statusMessage } from '../../shared/http-error.ts';
import { createStatusPageHeads, type PreparedAnswer, type StatusPageAnalytics } from './status-page-heads.ts';
import { createStatusPageHtml, type ErrorPageValues } from './status-page-html.ts';

export type { ErrorPageValues, PreparedAnswer, StatusPageAnalytics };

export interface StatusPages {
  /**
   * True when the pages carry analytics scripts: their HTML and policy then hold the request's
   * nonce, so an HTML status page is joined per request instead of sent as prepared bytes.
   */
  readonly perRequest: boolean;
  /** The Content-Security-Policy of status pages; `nonce` is used only when `perRequest`. */
  policy(nonce: string): string;
  /** A status page (not 500): the same text for every request unless `perRequest`. */
  status(status: number, nonce?: string): string;
  /** The 500 page of docs/status-pages.md. */
  serverError(values: ErrorPageValues): string;
  /**
   * The answer for `status` (not 500) as bytes with its headers, built on first use and then
   * kept. `undefined` for an HTML page that holds a nonce (`perRequest`); JSON never does.
   */
  prepared(status: number, json: boolean): PreparedAnswer | undefined;
  /** An answer made for one request: a 500 (host and digest), or a page holding the nonce. */
  answer(body: string, json: boolean, nonce: string): PreparedAnswer;
}

/** The JSON form of docs/status-pages.md. */
export function statusJson(status: number, digest?: string): string {
  return JSON.stringify(digest === undefined ? { status, message: statusMessage(status) } : { status, message: statusMessage(status), digest });
}

/**
 * Status answers: each page is rendered on first use (status-page-html.ts), and its answer kept
 * as bytes with every header but the request's own (docs/status-pages.md), unless it carries
 * analytics scripts, which keep the request's nonce.
 */
export function createStatusPages(analytics: StatusPageAnalytics = { sources: [], origins: [] }, language: Pick<SiteHead, 'lang' | 'dir'> = {}): StatusPages {
  const perRequest = analytics.sources.length > 0;
  const html = createStatusPageHtml(analytics.sources, language);
  const heads = createStatusPageHeads(analytics);
  const preparedHtml = new Map<number, PreparedAnswer>();
  const preparedJson = new Map<number, PreparedAnswer>();

  return {
    perRequest,
    policy: heads.policy,
    status(status, nonce = '') {
      return html.status(status, nonce);
    },
    serverError: html.serverError,
    prepared(status, json) {
      const kept = json ? preparedJson : preparedHtml;
      let answer = kept.get(status);
      if (answer === undefined) {
        if (!json && perRequest) return undefined;
        answer = heads.prepare(json ? statusJson(status) : html.status(status, ''), json, '');
        kept.set(status, answer);
      }
      return answer;
    },
    answer: heads.prepare,
  };
}
