import type { Submission } from '../../shared/api/navigation.ts';
import { NAVIGATION_FETCHER_HEADER, NAVIGATION_HEADER, NAVIGATION_KEEP_HEADER, NAVIGATION_SCOPE_HEADER } from '../../shared/protocol/navigation-headers.ts';
import type { View } from '../view.ts';

/**
 * Asks for a page's data (the browser's `fetch`); its scripts write into their own `scope`, so no
 * two pages' values mix. `keep` names the layouts on the screen whose data is still good: the
 * server sends none for them. `post` is a form's fields, posted; `fetcher` marks a fetcher's
 * post, answered with the action's result alone (server/render/fetcher-answer.ts). Positional,
 * not an options object: a property name is never minified, and each call would spell them out.
 */
export function requestData(
  fetch: typeof globalThis.fetch,
  url: URL,
  scope: string,
  keep: readonly string[],
  signal?: AbortSignal,
  post?: URLSearchParams,
  fetcher?: boolean,
): Promise<Response> {
  return fetch(url, {
    signal,
    ...(post === undefined ? {} : { method: 'POST', body: post }),
    headers: {
      [NAVIGATION_HEADER]: 'data',
      [NAVIGATION_SCOPE_HEADER]: scope,
      ...(keep.length === 0 ? {} : { [NAVIGATION_KEEP_HEADER]: keep.join(',') }),
      ...(fetcher ? { [NAVIGATION_FETCHER_HEADER]: '1' } : {}),
      accept: 'application/x-ndjson,application/json;q=0.9',
    },
  });
}

/**
 * The layouts whose data a request for `url`'s data can keep: those of the view on the screen,
 * when only the path changes. The same address again, another query, and everything after a post
 * (`revalidate`) load every level afresh, as React Router revalidates; a layout's
 * `shouldRevalidate` has the last word. Those past a level that failed have no data to keep.
 */
export function keepable(view: View, url: URL, revalidate: boolean, after?: Submission): string[] {
  if (!('page' in view)) return [];
  const defaultShouldRevalidate = revalidate || url.search !== location.search || url.pathname === location.pathname;
  const asked = { currentUrl: new URL(location.href), nextUrl: url, formMethod: after && ('POST' as const), ...after, defaultShouldRevalidate };
  const { layouts = [], failure } = view.page;
  return layouts
    .filter((_, index) => (failure === undefined || index < failure.at) && !(view.modules[index]?.shouldRevalidate?.(asked) ?? defaultShouldRevalidate))
    .map((layout) => layout.id);
}
