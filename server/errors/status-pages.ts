import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { statusMessage } from '../../shared/http-error.ts';
import { applicationErrorMessage } from '../../shared/status-view.tsx';
import { escapeHtml } from '../render/escape-html.ts';
import { compileTemplate, type HtmlTemplate } from '../render/html-template.ts';
import { StatusDocument } from './status-document.tsx';

// Plain letters survive React's escaping unchanged and never occur in the pages' own text.
const NONCE = 'XSTATUSPAGENONCEX';
const HOST = 'XSTATUSPAGEHOSTX';
const DIGEST = 'XSTATUSPAGEDIGESTX';

/** The statuses pages are rendered for ahead of time (docs/status-pages.md). */
const PRERENDERED = [400, 401, 403, 404, 405] as const;

export interface ErrorPageValues {
  readonly nonce: string;
  readonly host: string;
  readonly digest: string;
  /** Development only: message and stack, shown below the generic text. */
  readonly detail?: string | undefined;
}

export interface StatusPages {
  /** A 4xx page: the same bytes for every request apart from the nonce. */
  status(status: number, nonce: string): string;
  /** The 500 page of docs/status-pages.md. */
  serverError(values: ErrorPageValues): string;
}

function titleFor(status: number): string {
  return `${status}: ${statusMessage(status)}`;
}

type DocumentProps = Omit<Parameters<typeof StatusDocument>[0], 'analyticsSources'>;

function compileStatusPage(renderDocument: (props: DocumentProps) => string, status: number): HtmlTemplate<'nonce'> {
  const html = renderDocument({ title: titleFor(status), nonce: NONCE, status, message: statusMessage(status) });
  return compileTemplate(html, [['nonce', NONCE]]);
}

/**
 * Status pages are static apart from the nonce (and, for 500, host and digest): each is
 * rendered once when the app is built, and a request only joins strings.
 */
export function createStatusPages(analyticsSources: readonly string[] = []): StatusPages {
  function renderDocument(props: DocumentProps): string {
    return `<!DOCTYPE html>${renderToStaticMarkup(createElement(StatusDocument, { ...props, analyticsSources }))}`;
  }
  const pages = new Map<number, HtmlTemplate<'nonce'>>(PRERENDERED.map((status) => [status, compileStatusPage(renderDocument, status)]));
  const serverErrorPage = compileTemplate(
    renderDocument({
      title: titleFor(500),
      nonce: NONCE,
      status: 500,
      message: applicationErrorMessage('server', HOST),
      digest: DIGEST,
    }),
    [
      ['nonce', NONCE],
      ['host', HOST],
      ['digest', DIGEST],
    ],
  );

  return {
    status(status, nonce) {
      let page = pages.get(status);
      if (page === undefined) {
        page = compileStatusPage(renderDocument, status);
        pages.set(status, page);
      }
      return page({ nonce });
    },
    serverError({ nonce, host, digest, detail }) {
      if (detail === undefined) return serverErrorPage({ nonce, host: escapeHtml(host), digest: escapeHtml(digest) });
      return renderDocument({
        title: titleFor(500),
        nonce,
        status: 500,
        message: applicationErrorMessage('server', host),
        digest,
        detail,
      });
    },
  };
}
