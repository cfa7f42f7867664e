/**
 * The loader of the stylesheets a page needs that the document lacks, without applying them
 * yet: added with `media="not all"`, a stylesheet is still downloaded and parsed, so the page on
 * the screen keeps its look until the new page is shown styled (applyStyles). A failed one does
 * not hold the page back. `sheets` holds each one added, by URL: settles once it has loaded or failed.
 */
export function loadStyles(sheets: Map<string, Promise<unknown>>, hrefs: readonly string[]): Promise<unknown> {
  return Promise.all(
    hrefs.map((href) => {
      let loaded = sheets.get(href);
      // The document may hold it already: linked, or inline with its URL in data-href (client-assets.ts).
      if (loaded === undefined && document.querySelector(`link[rel=stylesheet][href="${href}"],style[data-href="${href}"]`) === null) {
        const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', media: 'not all', href });
        loaded = new Promise((done) => {
          link.onload = link.onerror = done;
        });
        sheets.set(href, loaded);
        document.head.append(link);
      }
      return loaded;
    }),
  );
}

/** Applies exactly these of the pages' stylesheets (`all`, every route's): the others stay, switched off, for a page that comes back. */
export function applyStyles(all: readonly string[], hrefs: readonly string[]): void {
  for (const link of document.head.querySelectorAll<HTMLLinkElement | HTMLStyleElement>('link[rel=stylesheet],style[data-href]')) {
    const href = link.getAttribute('href') ?? link.getAttribute('data-href') ?? '';
    if (all.includes(href)) link.media = hrefs.includes(href) ? 'all' : 'not all';
  }
}
