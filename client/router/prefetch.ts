import type { ClientRoute } from '../../shared/protocol/page-data.ts';
import { requestData } from './data-request.ts';

/** Prefetches in flight at once; more wait their turn. */
const MAX_PREFETCHES = 3;
/** How long a prefetched page's data may stand in for a fresh request (the router's next navigation there). */
export const PREFETCH_FRESH_MS = 10_000;

/** A page's data fetched ahead, by URL: when it was asked for, the scope its scripts write into, and the answer. */
export type Prefetched = Map<string, readonly [at: number, scope: string, response: Promise<Response>]>;

/**
 * Navigator.prefetch: a route's code and stylesheets fetched ahead, once each, into the browser's
 * cache, and with `data` its page's data too, into `prefetched`, which the router's next
 * navigation there takes. MAX_PREFETCHES run at once. The router's own pieces are passed in as
 * they are: `fetch`, the page's `nonce`, `routeOf` (a URL's route, if it stays in the page) and
 * `keep` (the layouts a request for a URL may keep, data-request.ts).
 */
export function createPrefetch(
  fetch: typeof globalThis.fetch,
  nonce: string,
  routeOf: (url: URL) => ClientRoute | undefined,
  prefetched: Prefetched,
  keep: (url: URL) => string[],
): (url: URL, data: boolean) => void {
  let running = 0;
  let count = 0;
  const waiting: Array<() => void> = [];
  const fetched = new Set<string>();

  /** Runs `task` now or once one in flight ends: `task` calls `done` when it ends. */
  function limit(task: (done: () => void) => void): void {
    const start = () => {
      running += 1;
      task(() => {
        running -= 1;
        waiting.shift()?.();
      });
    };
    if (running < MAX_PREFETCHES) start();
    else waiting.push(start);
  }

  return function prefetch(url, data) {
    const route = url.origin === location.origin ? routeOf(url) : undefined;
    if (route?.script === undefined) return;
    for (const href of [route.script, ...(route.preloads ?? []), ...(route.styles ?? [])]) {
      if (fetched.has(href) || document.querySelector(`link[href="${href}"],style[data-href="${href}"]`) !== null) continue;
      fetched.add(href);
      limit((done) => {
        const link = document.createElement('link');
        // A stylesheet is fetched ahead too, into the cache, and applied only when its page is
        // shown (loadStyles): a prefetch, since a preload the page on the screen never uses makes
        // the browser warn in the console.
        link.rel = route.styles?.includes(href) === true ? 'prefetch' : 'modulepreload';
        link.href = href;
        link.nonce = nonce;
        link.onload = link.onerror = done;
        document.head.append(link);
      });
    }
    if (!data || prefetched.has(url.href)) return;
    limit((done) => {
      count += 1;
      const scope = `p${count}`;
      const response = requestData(fetch, url, scope, keep(url));
      prefetched.set(url.href, [Date.now(), scope, response]);
      response.then(done, done);
    });
  };
}
