import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { statusMessage } from '../../shared/http-error.ts';
import { applicationErrorMessage, STATUS_VIEW_CSS } from '../../shared/status-view.tsx';
import { escapeHtml } from '../http/escape-html.ts';
import { HTML_HEADERS } from '../http/html-headers.ts';
import { compileTemplate, type HtmlTemplate } from '../http/html-template.ts';
import { prepareHead, type PreparedHead } from '../http/response-head.ts';
import { createStatusPagePolicy, styleHashSource } from '../security/content-security-policy.ts';
import { securityHeaderDefaults } from '../security/security-headers.ts';
import { StatusDocument } from './status-document.tsx';

// Plain letters survive React's escaping unchanged and never occur in the pages' own text.
const NONCE = 'XSTATUSPAGENONCEX';
const HOST = 'XSTATUSPAGEHOSTX';
const DIGEST = 'XSTATUSPAGEDIGESTX';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The hosting provider's analytics scripts (server/render/analytics.ts): URLs and the origins they need. */
export interface StatusPageAnalytics {
  readonly sources: readonly string[];
  readonly origins: readonly string[];
}

export interface ErrorPageValues {
  /** The request's nonce: used only when the pages carry analytics scripts. */
  readonly nonce?: string | undefined;
  readonly host: string;
  readonly digest: string;
  /** Development only: message and stack, shown below the generic text. */
  readonly detail?: string | undefined;
}

/**
 * A whole status answer but for the request's own headers (`X-Request-Id`, `Allow`, ...): its
 * head holds helmet's headers and Permissions-Policy too (server/http/response-head.ts).
 */
export interface PreparedAnswer {
  readonly head: PreparedHead;
  readonly body: Buffer;
}

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

function titleFor(status: number): string {
  return `${status}: ${statusMessage(status)}`;
}

/** The JSON form of docs/status-pages.md. */
export function statusJson(status: number, digest?: string): string {
  return JSON.stringify(digest === undefined ? { status, message: statusMessage(status) } : { status, message: statusMessage(status), digest });
}

/**
 * `sha256-…` of the status pages' one inline style, as the browser hashes it: StatusDocument
 * inlines STATUS_VIEW_CSS verbatim, on every status page, the 500 page included.
 */
function styleHash(): string {
  return styleHashSource(STATUS_VIEW_CSS);
}

type DocumentProps = Omit<Parameters<typeof StatusDocument>[0], 'analyticsSources'>;

/**
 * Status pages are static apart from the request id (and, for 500, host and digest): each is
 * rendered once, on first use, and its answer is kept as bytes with every header but the
 * request's own (docs/status-pages.md). Nothing is rendered when the app is built, so a start
 * does not pay for pages it may never send. The inline style is allowed by its hash
 * (docs/security.md), so no nonce is needed, except on pages that carry analytics scripts, which
 * keep the request's.
 */
export function createStatusPages(analytics: StatusPageAnalytics = { sources: [], origins: [] }): StatusPages {
  const perRequest = analytics.sources.length > 0;
  function renderDocument(props: DocumentProps): string {
    return `<!DOCTYPE html>${renderToStaticMarkup(createElement(StatusDocument, { ...props, analyticsSources: analytics.sources }))}`;
  }
  function compileStatusPage(status: number): HtmlTemplate<'nonce'> {
    const html = renderDocument({ title: titleFor(status), nonce: NONCE, status, message: statusMessage(status) });
    return compileTemplate(html, [['nonce', NONCE]]);
  }

  let serverErrorPage: HtmlTemplate<'nonce' | 'host' | 'digest'> | undefined;
  function compileServerErrorPage(): HtmlTemplate<'nonce' | 'host' | 'digest'> {
    const html = renderDocument({
      title: titleFor(500),
      nonce: NONCE,
      status: 500,
      message: applicationErrorMessage('server', HOST),
      digest: DIGEST,
    });
    return compileTemplate(html, [
      ['nonce', NONCE],
      ['host', HOST],
      ['digest', DIGEST],
    ]);
  }

  const styleHashes = [styleHash()];
  const policy = createStatusPagePolicy({
    styleHashes,
    analytics: perRequest ? { scriptSources: analytics.origins, connectSources: analytics.origins } : undefined,
  });
  // A JSON body runs no script, so its policy never needs the nonce: the fixed one.
  const fixedPolicy = createStatusPagePolicy({ styleHashes })('');
  const htmlType = HTML_HEADERS.find(([name]) => name === 'Content-Type') ?? (['Content-Type', 'text/html; charset=utf-8'] as const);
  const otherHtmlHeaders = HTML_HEADERS.filter((header) => header !== htmlType);

  const security = securityHeaderDefaults();

  function headFor(json: boolean, body: Buffer, csp: string): PreparedHead {
    return prepareHead([
      json ? ['Content-Type', JSON_TYPE] : htmlType,
      ...otherHtmlHeaders,
      // The body depends on Accept (JSON or HTML).
      ['Vary', 'Accept'],
      ['Content-Length', String(body.length)],
      ...security,
      ['Content-Security-Policy', csp],
    ]);
  }
  function prepare(text: string, json: boolean, nonce: string): PreparedAnswer {
    const body = Buffer.from(text);
    return { head: headFor(json, body, json ? fixedPolicy : policy(nonce)), body };
  }

  const pages = new Map<number, HtmlTemplate<'nonce'>>();
  const preparedHtml = new Map<number, PreparedAnswer>();
  const preparedJson = new Map<number, PreparedAnswer>();
  function pageFor(status: number): HtmlTemplate<'nonce'> {
    let page = pages.get(status);
    if (page === undefined) {
      page = compileStatusPage(status);
      pages.set(status, page);
    }
    return page;
  }

  const statusPages: StatusPages = {
    perRequest,
    policy,
    status(status, nonce = '') {
      return pageFor(status)({ nonce });
    },
    serverError({ nonce = '', host, digest, detail }) {
      if (detail === undefined) {
        serverErrorPage ??= compileServerErrorPage();
        return serverErrorPage({ nonce, host: escapeHtml(host), digest: escapeHtml(digest) });
      }
      return renderDocument({
        title: titleFor(500),
        nonce,
        status: 500,
        message: applicationErrorMessage('server', host),
        digest,
        detail,
      });
    },
    prepared(status, json) {
      const kept = json ? preparedJson : preparedHtml;
      let answer = kept.get(status);
      if (answer === undefined) {
        if (!json && perRequest) return undefined;
        answer = prepare(json ? statusJson(status) : pageFor(status)({ nonce: '' }), json, '');
        kept.set(status, answer);
      }
      return answer;
    },
    answer: prepare,
  };
  return statusPages;
}
