import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { SiteHead } from '../../shared/head.ts';
import { statusMessage } from '../../shared/http-error.ts';
import { applicationErrorMessage } from '../../shared/status-view.tsx';
import { escapeHtml } from '../http/escape-html.ts';
import { compileTemplate, type HtmlTemplate } from '../http/html-template.ts';
import { StatusDocument } from './status-document.tsx';

// Plain letters survive React's escaping unchanged and never occur in the pages' own text.
const NONCE = 'XSTATUSPAGENONCEX';
const HOST = 'XSTATUSPAGEHOSTX';
const DIGEST = 'XSTATUSPAGEDIGESTX';

export interface ErrorPageValues {
  /** The request's nonce: used only when the pages carry analytics scripts. */
  readonly nonce?: string | undefined;
  readonly host: string;
  readonly digest: string;
  /** Development only: message and stack, shown below the generic text. */
  readonly detail?: string | undefined;
}

export interface StatusPageHtml {
  /** A status page (not 500), rendered on first use and then filled in from its template. */
  status(status: number, nonce: string): string;
  /** The 500 page of docs/status-pages.md. */
  serverError(values: ErrorPageValues): string;
}

type DocumentProps = Omit<Parameters<typeof StatusDocument>[0], 'analyticsSources' | 'lang' | 'dir'>;

function titleFor(status: number): string {
  return `${status}: ${statusMessage(status)}`;
}

/**
 * The status pages' HTML. Each page is static apart from the nonce (and, for 500, host and
 * digest): it is rendered once, on first use, into a template those values fill. Nothing is
 * rendered when the app is built, so a start does not pay for pages it may never send. They
 * carry the site's language and direction (`language`), as its pages do.
 */
export function createStatusPageHtml(analyticsSources: readonly string[], { lang, dir }: Pick<SiteHead, 'lang' | 'dir'> = {}): StatusPageHtml {
  function renderDocument(props: DocumentProps): string {
    return `<!DOCTYPE html>${renderToStaticMarkup(createElement(StatusDocument, { ...props, lang, dir, analyticsSources }))}`;
  }

  const pages = new Map<number, HtmlTemplate<'nonce'>>();
  function pageFor(status: number): HtmlTemplate<'nonce'> {
    let page = pages.get(status);
    if (page === undefined) {
      const html = renderDocument({ title: titleFor(status), nonce: NONCE, status, message: statusMessage(status) });
      page = compileTemplate(html, [['nonce', NONCE]]);
      pages.set(status, page);
    }
    return page;
  }

  let serverErrorPage: HtmlTemplate<'nonce' | 'host' | 'digest'> | undefined;
  function compileServerErrorPage(): HtmlTemplate<'nonce' | 'host' | 'digest'> {
    const message = applicationErrorMessage('server', HOST);
    const html = renderDocument({ title: titleFor(500), nonce: NONCE, status: 500, message, digest: DIGEST });
    return compileTemplate(html, [
      ['nonce', NONCE],
      ['host', HOST],
      ['digest', DIGEST],
    ]);
  }

  return {
    status(status, nonce) {
      return pageFor(status)({ nonce });
    },
    serverError({ nonce = '', host, digest, detail }) {
      if (detail === undefined) {
        serverErrorPage ??= compileServerErrorPage();
        return serverErrorPage({ nonce, host: escapeHtml(host), digest: escapeHtml(digest) });
      }
      const message = applicationErrorMessage('server', host);
      return renderDocument({ title: titleFor(500), nonce, status: 500, message, digest, detail });
    },
  };
}
