import type { ClientRoute } from '../../shared/protocol/page-data.ts';

/** Prefetches in flight at once; more wait their turn. */
const MAX_PREFETCHES = 3;

/** A limit of MAX_PREFETCHES on the tasks it runs: `task` calls `done` when it ends. */
export function createLimit(): (task: (done: () => void) => void) => void {
  let running = 0;
  const waiting: Array<() => void> = [];
  return function limit(task) {
    const start = () => {
      running += 1;
      task(() => {
        running -= 1;
        waiting.shift()?.();
      });
    };
    if (running < MAX_PREFETCHES) start();
    else waiting.push(start);
  };
}

/** Fetches a route's code and stylesheets ahead, once each, into the browser's cache. */
export function createCodePrefetch(nonce: string, limit: ReturnType<typeof createLimit>): (route: ClientRoute) => void {
  const fetched = new Set<string>();
  return function prefetchCode(route) {
    if (route.script === undefined) return;
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
  };
}
