import type { ResolvedHead } from '../../shared/api/head.ts';

/** The head's tags a page sets (server/render/page-head.ts): replaced on every page, kept by a failed post. */
const HEAD_TAGS = 'meta[name=description],meta[name=robots],meta[property^="og:"],link[rel=canonical]';

/**
 * A page's tags as the server resolved them, or `noindex` alone for a status view, as on the
 * status pages, which leaves the document's language as it is. `undefined` keeps the tags on
 * the screen.
 */
export type Head = ResolvedHead | { readonly meta: ResolvedHead['meta']; readonly html?: undefined; readonly canonical?: undefined } | undefined;

export function setHead(title: string, head: Head): void {
  document.title = title;
  if (head === undefined) return;
  for (const element of document.head.querySelectorAll(HEAD_TAGS)) element.remove();
  // A page of another language (its head's `lang`) sets the document's, and the next page its own.
  Object.assign(document.documentElement, head.html);
  for (const { key, value, content } of head.meta) {
    const meta = document.createElement('meta');
    meta.setAttribute(key, value);
    meta.content = content;
    document.head.append(meta);
  }
  if (head.canonical !== undefined) document.head.append(Object.assign(document.createElement('link'), { rel: 'canonical', href: head.canonical }));
}

/** Runs a script of the server's under the page's nonce: the page data it carries builds itself. */
export function runScript(nonce: string, code: string): void {
  const script = document.createElement('script');
  script.nonce = nonce;
  script.textContent = code;
  document.head.append(script);
  script.remove();
}
