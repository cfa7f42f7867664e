import type { Navigator } from '../../shared/api/navigation.ts';
import type { ClientRoute } from '../../shared/protocol/page-data.ts';
import type { View } from '../view.ts';
import { arrive, type Arrival } from './arrival.ts';
import { keepable, requestData } from './data-request.ts';
import { runScript, setHead, type Head } from './document-head.ts';
import { createFetcherRequest } from './fetcher-request.ts';
import type { Go } from './go-options.ts';
import type { EntryState, HistoryClaim } from './history-entry.ts';
import { failedSubmission, isMeta, lines, redirectOf, routeModulesOf, runScripts, statusView, withKeptLayouts } from './page-answer.ts';
import { createPrefetch, PREFETCH_FRESH_MS, type Prefetched } from './prefetch.ts';
import { createRevalidation } from './revalidation.ts';
import { applyStyles, loadStyles } from './styles.ts';
import type { RuntimeHost } from './runtime-host.ts';
import { MAX_KEPT, type KeptView } from './view-memory.ts';
import { statusMessage } from '../../shared/wording/status-messages.ts';

/** A navigation slower than this shows the progress bar; a faster one never flashes it. */
const PROGRESS_DELAY_MS = 200;
/** Redirects followed in place in a row; past them the browser loads the page, and caps a loop itself. */
const MAX_REDIRECTS = 10;

/** The navigation runtime: what links and forms ask of it, and `shown`, which the view on the screen calls once React has it there. */
export interface Router extends Navigator {
  shown(): void;
  /** A move back or forward the runtime's own listener missed: made after a reload (Chrome keeps the earlier document's entries as this one's), before it started. */
  pop(event: PopStateEvent): void;
}

/**
 * Starts the navigation runtime on a hydrated document whose history is claimed already
 * (`claim`, claimHistory's), with the `history` and `fetch` it uses, the route `table`, the view
 * on the screen (`initial`) and `show`, which puts a view on the screen (the Router component's
 * state); React calls `shown` once it is there. `host` is what it uses of the page's first-load
 * code (runtime-host.ts). A move back or forward made before it started is handed to `pop`.
 */
export function createRouter(
  history: History,
  fetch: typeof globalThis.fetch,
  table: readonly ClientRoute[],
  initial: View,
  show: (view: View) => void,
  claim: HistoryClaim,
  host: RuntimeHost,
): Router {
  const [
    startTransition,
    flushSync,
    actionOf,
    fieldsOf,
    setNavigationState,
    submissionOf,
    routeErrorOf,
    pageDataIn,
    valueIn,
    announce,
    postsInPlace,
    keptScroll,
    saveScroll,
    otherFragmentHere,
  ] = host;
  const { doc } = claim;
  const routes = table.map((route) => ({ ...route, pattern: new RegExp(route.source, route.flags) }));
  const nonce = document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce ?? '';
  /** The view on the screen (or on its way): whose layouts a navigation may keep. */
  let current = initial;
  let nextKey = 1;
  const at = () => location.pathname + location.search;
  /** The path and query on the screen: history that changes only the fragment stays on this page. */
  let here = claim.here;
  let inFlight: AbortController | undefined;
  /** The in-flight request when it is a revalidation (Navigator.revalidate), which a navigation replaces but never the other way round. */
  let refreshing: AbortController | undefined;
  let arrival: Arrival | undefined;
  /** What back and forward may show again without asking the server, by history key (view-memory.ts). */
  const kept = new Map<number, KeptView>();
  /** Where each view was scrolled when it was left, by its history key: restored when history comes back to it. */
  const scrolls = new Map<number, readonly [number, number]>();
  const prefetched: Prefetched = new Map();
  /** Every route's stylesheets: those a navigation switches on and off. */
  const allStyles = table.flatMap((route) => route.styles ?? []);
  /** Each stylesheet a navigation added, by URL: settles once it has loaded or failed. */
  const sheets = new Map<string, Promise<unknown>>();
  const run = (code: string) => runScript(nonce, code);
  const [revalidate, tellRevalidated] = createRevalidation(go, () => inFlight !== undefined && inFlight !== refreshing);

  /**
   * Whether a same-origin URL stays in the page: a route with code does; a route without does
   * not (the browser loads it); no route at all does too, and the server's 404 shows in place.
   * A resource route with an action alone is not in the table (client-routes.ts): a form posted
   * to it stays, and its redirect goes on in place.
   */
  function stays(url: URL): boolean {
    if (url.origin !== location.origin) return false;
    const route = routeOf(url);
    return route === undefined || route.script !== undefined;
  }

  /** The route of a same-origin URL's path, if any. */
  function routeOf(url: URL): (typeof routes)[number] | undefined {
    return routes.find((candidate) => candidate.pattern.test(url.pathname));
  }

  /**
   * Shows a view, with a view transition where the browser has one and motion is welcome. A page
   * comes with its stylesheets, loaded already; a status view keeps those of the page before it.
   * With `keep`, back and forward may show it again from memory: the view as shown, its title,
   * head and stylesheets, which is what the memory keeps (KeptView) and gives back to commit.
   */
  function commit(next: Arrival, keep: boolean, view: View, title: string, head: Head, styles?: readonly string[]): void {
    current = view;
    here = at();
    const showIt = () => {
      // Whatever view comes next has the data loaded after the fetchers' posts: they go idle in it.
      tellRevalidated();
      setHead(title, head);
      if (styles !== undefined) applyStyles(allStyles, styles);
      arrival = next;
      show(view);
    };
    if (keep) kept.set(view.key, [view, title, head, styles]);
    else kept.delete(view.key);
    if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value ?? 0);
    if (next.shown === undefined && typeof document.startViewTransition === 'function' && !matchMedia('(prefers-reduced-motion: reduce)').matches) {
      // A move that starts while one is animating skips that one's animation (its view is still
      // shown): its `ready` rejects, which is no error of the page's.
      document.startViewTransition(() => flushSync(showIt)).ready.catch(() => {});
    } else {
      startTransition(showIt);
    }
  }

  /**
   * A new history entry for a load that `landed` there, or the current one replaced; none for a
   * revalidation. Back or forward to a view loaded again gives the entry the new view's key, its
   * scroll kept: the next move there finds this view, and where it was left.
   */
  function record(options: Go, key: number, landed: URL): void {
    if (options.refresh !== undefined) return;
    const replace = options.pop !== undefined || options.replace === true || landed.href === location.href;
    if (!replace) saveScroll(history);
    history[replace ? 'replaceState' : 'pushState']({ ...(options.pop && history.state), key, doc }, '', landed.href);
  }

  /**
   * A page's data answer: its code, styles and data, then the view. Returns the rest of the answer,
   * where deferred values keep arriving; nothing when the load was given up.
   */
  async function showPage(response: Response, options: Go, key: number, landed: URL, signal: AbortSignal, scope: string): Promise<AsyncGenerator<unknown> | undefined> {
    const { refresh } = options;
    const stream = lines(response);
    const meta = (await stream.next()).value;
    if (!isMeta(meta) || meta.assets === null) throw new Error('no page');
    const code = import(/* @vite-ignore */ meta.assets.script);
    // The stylesheets of the page, from its route (docs/styles.md).
    const styles = routeOf(landed)?.styles ?? [];
    // In parallel with the code and the data: the page is shown once its CSS is there, never unstyled.
    const styled = loadStyles(sheets, styles);
    const initial = (await stream.next()).value;
    if (typeof initial !== 'string') throw new Error('no page');
    run(initial);
    const sent = pageDataIn(scope);
    const modules = routeModulesOf(await code);
    await styled;
    if (signal.aborted) return;
    // A layout the server left to the browser that is no longer on the screen (a prefetch made
    // from another page): the page cannot be shown from what is here, so it loads in full.
    const page = sent === undefined ? undefined : withKeptLayouts(sent, current);
    if (modules === undefined || page === undefined || modules.length !== (page.layouts?.length ?? 0) + 1) throw new Error('no page');
    record(options, key, landed);
    // A revalidation keeps the view's key: the page is not mounted afresh, its state and fields stay.
    commit(
      { scroll: options.pop?.scroll, hash: landed.hash, announce: true, shown: refresh },
      // Layouts filled from the view on the screen (a new object): kept only if that view is.
      meta.keep === true && (page === sent || kept.has(current.key)),
      { key: refresh !== undefined ? current.key : key, modules, page },
      meta.head.title,
      meta.head,
      styles,
    );
    return stream;
  }

  /** An in-place navigation: the page's data from the server, its code, then the new view. */
  async function go(url: URL, options: Go): Promise<void> {
    const { refresh, post } = options;
    // A post may sign the visitor in or out: no prefetch made before it stands in for a page after it.
    if (post !== undefined) prefetched.clear();
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    refreshing = refresh === undefined ? undefined : controller;
    const key = nextKey;
    nextKey += 1;
    if (refresh === undefined) setNavigationState({ state: post === undefined ? 'loading' : 'submitting', location: url.href });
    const progress = refresh === undefined ? setTimeout(() => document.documentElement.classList.add('nav-pending'), PROGRESS_DELAY_MS) : undefined;
    const finish = () => {
      clearTimeout(progress);
      if (inFlight !== controller) return;
      inFlight = undefined;
      document.documentElement.classList.remove('nav-pending');
      setNavigationState({ state: 'idle' });
    };
    try {
      const revalidate = post !== undefined || options.revalidate === true;
      const early = revalidate ? undefined : prefetched.get(url.href);
      prefetched.delete(url.href);
      const fresh = early !== undefined && Date.now() - early[0] < PREFETCH_FRESH_MS ? early : undefined;
      // A prefetch's own scope, the one its scripts write into, and its answer; else a request of its own.
      const scope = fresh?.[1] ?? `n${key}`;
      const response = await (fresh?.[2] ?? requestData(fetch, url, scope, post === undefined ? keepable(current, url, revalidate, options.after) : [], controller.signal, post));
      // An action or a load that redirected: go on to where it said, in place, as a new page.
      const target = redirectOf(response);
      if (target !== undefined) {
        finish();
        await follow(target, { replace: options.replace, hops: (options.hops ?? 0) + 1, revalidate, after: post === undefined ? options.after : submissionOf(url, post) });
        return;
      }
      const landed = new URL(response.url || url.href);
      landed.hash = url.hash;
      const type = response.headers.get('content-type') ?? '';
      // A status page; a resource route's own JSON that is no error is no page (below).
      if (type.startsWith('application/json') && !response.ok) {
        const view = await statusView(response, key, statusMessage);
        if (controller.signal.aborted) return;
        record(options, key, landed);
        // Not kept for back and forward: every status answer is no-store.
        commit({ announce: true }, false, view, `${view.status}: ${view.message}`, { meta: [{ key: 'name', value: 'robots', content: 'noindex' }] });
      } else if (type.startsWith('application/x-ndjson')) {
        const rest = await showPage(response, options, key, landed, controller.signal, scope);
        finish();
        if (rest !== undefined) await runScripts(rest, controller.signal, run);
      }
      // A resource route's answer that is no redirect (a file, JSON): nothing to show in place.
      else throw new Error('no page');
    } catch (error) {
      // A revalidation that fails leaves the page as it was: what the action did is saved already.
      if (controller.signal.aborted || refresh !== undefined) return;
      // A network failure, or an answer that is no page of ours: the browser loads it in full.
      if (post === undefined) {
        location.assign(url.href);
        return;
      }
      // A post is never sent again behind the visitor's back: the server may have run the action
      // already (the connection broke after it, the answer was cut, its page's code is gone after
      // a deploy), and even a fetch that failed outright may have reached it. The error page
      // shows in place, at the same address; the visitor decides what to do next.
      commit({ announce: false }, false, failedSubmission(key, error), document.title, undefined);
    } finally {
      finish();
    }
  }

  /** Goes where a redirect said, in place, as a new page; a loop, or a target without code here (a resource route), the browser loads in full. */
  function follow(target: URL, options: Go): Promise<void> {
    if ((options.hops ?? 0) <= MAX_REDIRECTS && stays(target)) return go(target, options);
    location.assign(target.href);
    return Promise.resolve();
  }

  function onPopState(event: PopStateEvent): void {
    // Another fragment of the page on the screen: the browser scrolls by itself, and the page stays.
    if (at() === here) return;
    const state: EntryState = Object(event.state);
    // -1, which no view has, for an entry that is not this document's.
    const key = state.doc === doc && typeof state.key === 'number' ? state.key : -1;
    // The page being left keeps its scroll for a later forward or back: the browser has changed
    // the address but not yet the scroll, which is still that page's.
    scrolls.set(current.key, [scrollX, scrollY]);
    const restore = scrolls.get(key) ?? keptScroll(state);
    const saved = kept.get(key);
    const url = new URL(location.href);
    if (saved !== undefined) {
      inFlight?.abort();
      commit({ scroll: restore, hash: url.hash, announce: true }, true, ...saved);
      return;
    }
    if (!stays(url)) location.reload();
    else void go(url, { pop: { scroll: restore } });
  }

  addEventListener('popstate', onPopState);
  return {
    navigate(url, options) {
      if (otherFragmentHere(url)) return false;
      if (!stays(url)) return false;
      void go(url, { replace: options?.replace });
      return true;
    },
    submit(form, submitter) {
      const action = actionOf(form, submitter);
      if (!postsInPlace(form, submitter) || !stays(action)) return false;
      // Once sent, it is never sent again: a failure shows the error page (go, above).
      void go(action, { post: fieldsOf(new FormData(form, submitter)) });
      return true;
    },
    prefetch: createPrefetch(fetch, nonce, routeOf, prefetched, (url) => keepable(current, url, false)),
    fetch: createFetcherRequest(fetch, prefetched, follow, run, revalidate, valueIn, { routeErrorOf, statusMessage }),
    revalidate,
    pop: onPopState,
    shown() {
      const done = arrival;
      arrival = undefined;
      done?.shown?.();
      if (done !== undefined && done.shown === undefined) arrive(done, announce);
    },
  };
}
