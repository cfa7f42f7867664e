import type { Request } from 'express';
import type { SiteHead } from '../../shared/api/head.ts';
import type { PageRequest } from '../../shared/api/route-definition.ts';
import type { StatusLookOptions } from './status-look.ts';
import { createStatusPageHeads, type PreparedAnswer, type StatusPageAnalytics } from './status-page-heads.ts';
import { createStatusPageHtml, type ErrorPageValues } from './status-page-html.ts';
import type { StatusWords } from '../render/status-words.ts';
import { createStatusWording, type StatusLanguage, type StatusWordingOptions } from './status-wording.ts';

export type { ErrorPageValues, PreparedAnswer, StatusLanguage, StatusPageAnalytics };

/** `defineApp({ statusPages })`: the status answers' words per language and their look (docs/status-pages.md#the-apps-choices). */
export interface StatusPageOptions extends StatusWordingOptions, StatusLookOptions {}

/** What createApp resolved of the app's options: `stylesOf` as the built stylesheets' URLs. */
export interface StatusPageSettings extends StatusWordingOptions, Pick<StatusLookOptions, 'component'> {
  readonly stylesheets?: readonly string[] | undefined;
  /** The request as a `load` sees it, for the app's `language`. */
  readonly pageRequest?: ((req: Request) => PageRequest) | undefined;
}

export interface StatusPages {
  /**
   * True when the pages carry analytics scripts: their HTML and policy then hold the request's
   * nonce, so an HTML status page is joined per request instead of sent as prepared bytes.
   */
  readonly perRequest: boolean;
  /** The language the request's answer is in (the site's unless the app words its pages in others). */
  language(req: Request): StatusLanguage;
  /** The message of `status` in the request's language: what a page shows of a status inside its layouts. */
  readonly words: StatusWords;
  /** The Content-Security-Policy of status pages; `nonce` is used only when `perRequest`. */
  policy(nonce: string): string;
  /** A status page (not 500): the same text for every request in a language unless `perRequest`. */
  status(status: number, nonce?: string, language?: StatusLanguage): string;
  /** The 500 page of docs/status-pages.md. */
  serverError(values: ErrorPageValues, language?: StatusLanguage): string;
  /** The JSON form of docs/status-pages.md, its message in `language`. */
  json(status: number, language?: StatusLanguage, digest?: string): string;
  /**
   * The answer for `status` (not 500) in a language as bytes with its headers, built on first use
   * and then kept. `undefined` for an HTML page that holds a nonce (`perRequest`); JSON never does.
   */
  prepared(status: number, json: boolean, language?: StatusLanguage): PreparedAnswer | undefined;
  /** An answer made for one request: a 500 (host and digest), or a page holding the nonce. */
  answer(body: string, json: boolean, nonce: string): PreparedAnswer;
}

/**
 * Status answers: each page is rendered on first use (status-page-html.ts), and its answer kept
 * as bytes with every header but the request's own (docs/status-pages.md), per language and
 * status, unless it carries analytics scripts, which keep the request's nonce.
 */
export function createStatusPages(
  analytics: StatusPageAnalytics = { sources: [], origins: [] },
  site: Pick<SiteHead, 'lang' | 'dir'> = {},
  settings: StatusPageSettings = {},
): StatusPages {
  const perRequest = analytics.sources.length > 0;
  const wording = createStatusWording(site, settings, settings.pageRequest);
  const html = createStatusPageHtml(wording, { analyticsSources: analytics.sources, stylesheets: settings.stylesheets ?? [], component: settings.component });
  const heads = createStatusPageHeads(analytics, { byLanguage: wording.byLanguage, ownLook: settings.component !== undefined });
  // By language (each one object, wording.ts's), then status: no key is built per request.
  const preparedHtml = new Map<StatusLanguage, Map<number, PreparedAnswer>>();
  const preparedJson = new Map<StatusLanguage, Map<number, PreparedAnswer>>();

  function json(status: number, { lang } = wording.site, digest?: string): string {
    const message = wording.message(lang, status);
    return JSON.stringify(digest === undefined ? { status, message } : { status, message, digest });
  }

  return {
    perRequest,
    language: wording.languageOf,
    words: (req, status) => wording.message(wording.languageOf(req).lang, status),
    policy: heads.policy,
    status(status, nonce = '', language = wording.site) {
      return html.status(status, nonce, language);
    },
    serverError(values, language = wording.site) {
      return html.serverError(values, language);
    },
    json,
    prepared(status, asJson, language = wording.site) {
      const byLanguage = asJson ? preparedJson : preparedHtml;
      let kept = byLanguage.get(language);
      if (kept === undefined) {
        kept = new Map();
        byLanguage.set(language, kept);
      }
      let answer = kept.get(status);
      if (answer === undefined) {
        if (!asJson && perRequest) return undefined;
        answer = heads.prepare(asJson ? json(status, language) : html.status(status, '', language), asJson, '');
        kept.set(status, answer);
      }
      return answer;
    },
    answer: heads.prepare,
  };
}
