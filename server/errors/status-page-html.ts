import type { ComponentType } from 'react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { escapeHtml } from '../http/escape-html.ts';
import { compileTemplate, type HtmlTemplate } from '../http/html-template.ts';
import { StatusDocument } from './status-document.tsx';
import type { StatusPageProps } from './status-look.ts';
import type { StatusLanguage, StatusWording } from './status-wording.ts';

// Plain letters survive React's escaping unchanged and never occur in the pages' own text.
const NONCE = 'XSTATUSPAGENONCEX';
const HOST = 'XSTATUSPAGEHOSTX';
const DIGEST = 'XSTATUSPAGEDIGESTX';

export interface ErrorPageValues {
  /** The request's nonce: used only when the pages carry analytics scripts. */
  readonly nonce?: string | undefined;
  readonly host: string;
  readonly digest: string;
  /** 500, or 503 for `serviceUnavailable()`: the page names its status and says it in words, with the digest either way. */
  readonly status?: number | undefined;
  /** Development only: message and stack, shown below the generic text. */
  readonly detail?: string | undefined;
}

export interface StatusPageHtml {
  /** A status page (not 500) in `language`, rendered on first use and then filled in from its template. */
  status(status: number, nonce: string, language: StatusLanguage): string;
  /** The 500 page of docs/status-pages.md (or the 503 one with a digest), in `language`. */
  serverError(values: ErrorPageValues, language: StatusLanguage): string;
}

/** How the pages look and what they carry besides their words (status-look.ts). */
export interface StatusPageLook {
  readonly analyticsSources: readonly string[];
  readonly stylesheets: readonly string[];
  readonly component?: ComponentType<StatusPageProps> | undefined;
}

type DocumentProps = Omit<Parameters<typeof StatusDocument>[0], 'analyticsSources' | 'lang' | 'dir' | 'stylesheets' | 'View'>;

/**
 * The status pages' HTML. Each page is static apart from the nonce (and, for 500, host and
 * digest): it is rendered once per language, on first use, into a template those values fill.
 * Nothing is rendered when the app is built, so a start does not pay for pages it may never
 * send. They carry the request's language and direction, the site's unless the app words them
 * in others (status-wording.ts).
 */
export function createStatusPageHtml(wording: StatusWording, { analyticsSources, stylesheets, component }: StatusPageLook): StatusPageHtml {
  function renderDocument(props: DocumentProps, { lang, dir }: StatusLanguage): string {
    const document = createElement(StatusDocument, { ...props, lang, dir, analyticsSources, stylesheets, View: component });
    return `<!DOCTYPE html>${renderToStaticMarkup(document)}`;
  }
  function titleFor(lang: string, status: number): string {
    return `${status}: ${wording.message(lang, status)}`;
  }

  const pages = new Map<string, HtmlTemplate<'nonce'>>();
  function pageFor(status: number, language: StatusLanguage): HtmlTemplate<'nonce'> {
    const key = `${language.lang} ${status}`;
    let page = pages.get(key);
    if (page === undefined) {
      const message = wording.message(language.lang, status);
      const html = renderDocument({ title: titleFor(language.lang, status), nonce: NONCE, status, message }, language);
      page = compileTemplate(html, [['nonce', NONCE]]);
      pages.set(key, page);
    }
    return page;
  }

  /** The 500 page's sentence names the host; another 5xx (503) says its status's message. */
  function errorMessage(lang: string, status: number, host: string): string {
    return status === 500 ? wording.serverErrorMessage(lang, host) : wording.message(lang, status);
  }

  const serverErrorPages = new Map<string, HtmlTemplate<'nonce' | 'host' | 'digest'>>();
  function compileServerErrorPage(status: number, language: StatusLanguage): HtmlTemplate<'nonce' | 'host' | 'digest'> {
    const message = errorMessage(language.lang, status, HOST);
    const html = renderDocument({ title: titleFor(language.lang, status), nonce: NONCE, status, message, host: HOST, digest: DIGEST }, language);
    return compileTemplate(html, [
      ['nonce', NONCE],
      ['host', HOST],
      ['digest', DIGEST],
    ]);
  }

  return {
    status(status, nonce, language) {
      return pageFor(status, language)({ nonce });
    },
    serverError({ nonce = '', host, digest, status = 500, detail }, language) {
      if (detail === undefined) {
        const key = `${language.lang} ${status}`;
        let page = serverErrorPages.get(key);
        if (page === undefined) {
          page = compileServerErrorPage(status, language);
          serverErrorPages.set(key, page);
        }
        return page({ nonce, host: escapeHtml(host), digest: escapeHtml(digest) });
      }
      const message = errorMessage(language.lang, status, host);
      return renderDocument({ title: titleFor(language.lang, status), nonce, status, message, host, digest, detail }, language);
    },
  };
}
