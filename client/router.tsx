import { startTransition, useEffect, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import type { ResolvedHead } from '../shared/api/head.ts';
import { statusMessage } from '../shared/wording/status-messages.ts';
import { installNavigator, setNavigationState, submissionOf, type FetcherAnswer, type Submission } from '../shared/api/navigation.ts';
import {
  NAVIGATION_FETCHER_HEADER,
  NAVIGATION_HEADER,
  NAVIGATION_KEEP_HEADER,
  NAVIGATION_REDIRECT_HEADER,
  NAVIGATION_SCOPE_HEADER,
} from '../shared/protocol/navigation-headers.ts';
import type { ClientRoute, EmbeddedPageData, LayoutData, PageDataMeta } from '../shared/protocol/page-data.ts';
import { applicationErrorMessage, StatusView } from '../shared/views/status-view.tsx';
import { pageDataIn, valueIn } from './page-data.ts';
import type { RouteModule, View } from './view.ts';

/** A navigation slower than this shows the progress bar; a faster one never flashes it. */
const PROGRESS_DELAY_MS = 200;
/** Prefetches in flight at once; more wait their turn. */
const MAX_PREFETCHES = 3;
/** How long a prefetched page's data may stand in for a fresh request. */
const PREFETCH_FRESH_MS = 10_000;
/** Views kept for back and forward, newest last. */
const MAX_KEPT = 20;
/** Redirects followed in place in a row; past them the browser loads the page, and caps a loop itself. */
const MAX_REDIRECTS = 10;

let showView: ((view: View) => void) | undefined;
/** The view on the screen (or on its way): whose layouts a navigation may keep. */
let current: View | undefined;
let nextKey = 1;
/**
 * This document's mark on the history entries it made. Keys start again in every document, so
 * an entry another document left (before a reload, or a page loaded in full) holds a key that
 * may name a view of this one: only entries with this mark are looked up.
 */
const doc = Math.random();
/** The path and query on the screen: history that changes only the fragment stays on this page. */
let here = '';
let inFlight: AbortController | undefined;
/** The in-flight request when it is a revalidation (Navigator.revalidate), which a navigation replaces but never the other way round. */
let refreshing: AbortController | undefined;
let routes: ReadonlyArray<ClientRoute & { readonly pattern: RegExp }> = [];
let nonce = '';
/**
 * What back and forward may show again without asking the server, by history key: only views
 * any visitor may be shown (the data's `keep`, docs/navigation.md); any other is loaded again.
 */
const kept = new Map<number, { readonly view: View; readonly title: string; readonly head: Head; readonly styles?: readonly string[] | undefined }>();

/** The router: renders the current view; `startNavigation` swaps it. */
export function Router({ initial, render }: { readonly initial: View; readonly render: (view: View) => ReactNode }) {
  const [view, setView] = useState(initial);
  showView = setView;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `view` is what the effect follows: it runs once each view is on the screen
  useEffect(() => afterShow(), [view]);
  return render(view);
}

/** The view of a status the server answered a navigation with: the same words as its status page (the app's, in the request's language). */
export function StatusOnly({ status, message, digest }: { readonly status: number; readonly message: string; readonly digest?: string | undefined }) {
  return (
    <main>
      {/* Headed by its status, as the full page is, the 500 one included. */}
      <StatusView status={status} message={status >= 500 ? applicationErrorMessage('server', location.hostname) : message} digest={digest} />
    </main>
  );
}

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

/** The stylesheets of the page at a same-origin URL, from its route (docs/styles.md). */
function stylesOf(url: URL): readonly string[] {
  return routeOf(url)?.styles ?? [];
}

/** Each stylesheet a navigation added, by URL: settles once it has loaded or failed. */
const sheets = new Map<string, Promise<unknown>>();

/**
 * Loads the stylesheets a page needs that the document lacks, without applying them yet: added
 * with `media="not all"`, a stylesheet is still downloaded and parsed, so the page on the screen
 * keeps its look until the new page is shown styled (applyStyles). A failed one does not hold
 * the page back.
 */
function loadStyles(hrefs: readonly string[]): Promise<unknown> {
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

/** Applies exactly these of the pages' stylesheets: the others stay, switched off, for a page that comes back. */
function applyStyles(hrefs: readonly string[]): void {
  for (const link of document.head.querySelectorAll<HTMLLinkElement | HTMLStyleElement>('link[rel=stylesheet],style[data-href]')) {
    const href = link.getAttribute('href') ?? link.getAttribute('data-href') ?? '';
    if (routes.some((route) => route.styles?.includes(href))) link.media = hrefs.includes(href) ? 'all' : 'not all';
  }
}

/** Runs a script of the server's under the page's nonce: the page data it carries builds itself. */
function runScript(code: string): void {
  const script = document.createElement('script');
  script.nonce = nonce;
  script.textContent = code;
  document.head.append(script);
  script.remove();
}

/** The head's tags a page sets (server/render/page-head.ts): replaced on every page, kept by a failed post. */
const HEAD_TAGS = 'meta[name=description],meta[name=robots],meta[property^="og:"],link[rel=canonical]';

/**
 * A page's tags as the server resolved them, or `noindex` alone for a status view, as on the
 * status pages, which leaves the document's language as it is. `undefined` keeps the tags on
 * the screen.
 */
type Head = ResolvedHead | { readonly meta: ResolvedHead['meta']; readonly html?: undefined; readonly canonical?: undefined } | undefined;

function setHead(title: string, head: Head): void {
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

/** Tells screen readers where they are now, as a page load would. */
function announce(text: string): void {
  let region = document.getElementById('nav-announcer');
  if (region === null) {
    // ARIA's reflected properties set the attributes (aria-live, aria-atomic).
    region = Object.assign(document.createElement('div'), { id: 'nav-announcer', className: 'sr-only', ariaLive: 'assertive', ariaAtomic: 'true' });
    document.body.append(region);
  }
  region.textContent = text;
}

interface Arrival {
  readonly scroll?: readonly [number, number] | undefined;
  /** The `#fragment` to scroll to, if any. */
  readonly hash?: string;
  readonly announce: boolean;
  /** A revalidation: the page keeps its scroll and focus, and this hears that it is on the screen. */
  readonly shown?: (() => void) | undefined;
}
let arrival: Arrival | undefined;

/**
 * The id a `#fragment` names: percent-decoded, or as written when it is no valid
 * percent-encoding (`#%E0%A4%A`), where decoding throws and would take the page down with it.
 */
function fragmentId(hash: string): string {
  const written = hash.slice(1);
  try {
    return decodeURIComponent(written);
  } catch {
    return written;
  }
}

/** After React has shown a new view: scroll, focus the main heading, announce the title. */
function afterShow(): void {
  const done = arrival;
  arrival = undefined;
  done?.shown?.();
  if (done === undefined || done.shown !== undefined) return;
  // A form answered with field errors: its first invalid field takes the focus and comes into
  // view, as the browser's own validation would do, rather than the page's heading at the top.
  document.querySelector<HTMLElement>('#root [aria-invalid=true]')?.focus();
  // A field the visitor is typing in (that one, or one in a layout that stayed: a search box that
  // navigates as they type) keeps the focus and the scroll; otherwise both go to the new page.
  const typing = document.activeElement?.matches('#root input,#root textarea,#root select') === true;
  const target = done.hash ? document.getElementById(fragmentId(done.hash)) : null;
  if (done.scroll !== undefined) scrollTo(...done.scroll);
  else if (target !== null) target.scrollIntoView();
  else if (!typing) scrollTo(0, 0);
  const heading = typing ? null : (document.querySelector<HTMLElement>('#root main h1') ?? document.querySelector<HTMLElement>('#root h1'));
  if (heading !== null) {
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: true });
  }
  if (done.announce) announce(document.title);
}

/**
 * Shows a view, with a view transition where the browser has one and motion is welcome. A page
 * comes with its stylesheets, loaded already; a status view keeps those of the page before it.
 * With `keep`, back and forward may show it again from memory.
 */
function commit(view: View, title: string, head: Head, next: Arrival, styles?: readonly string[], keep = false): void {
  current = view;
  here = location.pathname + location.search;
  const show = () => {
    // Whatever view comes next has the data loaded after the fetchers' posts: they go idle in it.
    tellRevalidated();
    setHead(title, head);
    if (styles !== undefined) applyStyles(styles);
    arrival = next;
    showView?.(view);
  };
  if (keep) kept.set(view.key, { view, title, head, styles });
  else kept.delete(view.key);
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value ?? 0);
  if (next.shown === undefined && typeof document.startViewTransition === 'function' && !matchMedia('(prefers-reduced-motion: reduce)').matches) {
    document.startViewTransition(() => flushSync(show));
  } else {
    startTransition(show);
  }
}

/** Lines of the page-data answer (server/render/page-data-answer.ts) as they arrive. */
async function* lines(response: Response): AsyncGenerator<unknown> {
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (reader === undefined) return;
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    // Every piece but the last is a whole line; the last waits for the rest of its line.
    const pieces = (buffered + value).split('\n');
    buffered = pieces.pop() ?? '';
    for (const line of pieces) yield JSON.parse(line);
  }
}

/** The meta line of a data answer, told from its scripts (strings) by the field only it has. */
function isMeta(value: unknown): value is PageDataMeta {
  return 'assets' in Object(value);
}

/** Where each view was scrolled when it was left, by its history key: restored when history comes back to it. */
const scrolls = new Map<number, readonly [number, number]>();

function saveScroll(): void {
  history.replaceState({ ...history.state, scroll: [scrollX, scrollY] }, '');
}

const prefetched = new Map<string, { readonly at: number; readonly scope: string; readonly response: Promise<Response> }>();

interface DataRequest {
  readonly signal?: AbortSignal | undefined;
  /** A form's fields, posted. */
  readonly post?: URLSearchParams | undefined;
  /** The layouts on the screen whose data is still good: the server sends none for them. */
  readonly keep?: readonly string[];
  /** A fetcher's post: the answer is the action's result alone (server/render/fetcher-answer.ts). */
  readonly fetcher?: boolean;
}

/** Asks for a page's data; its scripts write into their own scope, so no two pages' values mix. */
function request(url: URL, scope: string, { signal, post, keep = [], fetcher = false }: DataRequest): Promise<Response> {
  // A post may sign the visitor in or out: no prefetch made before it stands in for a page after it.
  if (post !== undefined) prefetched.clear();
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
function keepable(url: URL, revalidate: boolean, after?: Submission): string[] {
  const view = current;
  if (view === undefined || !('page' in view)) return [];
  const defaultShouldRevalidate = revalidate || url.search !== location.search || url.pathname === location.pathname;
  const asked = { currentUrl: new URL(location.href), nextUrl: url, formMethod: after && ('POST' as const), ...after, defaultShouldRevalidate };
  const { layouts = [], failure } = view.page;
  return layouts
    .filter((_, index) => (failure === undefined || index < failure.at) && !(view.modules[index]?.shouldRevalidate?.(asked) ?? defaultShouldRevalidate))
    .map((layout) => layout.id);
}

/** The page's data with each layout the server left out (`kept`) filled from the view on the screen; `undefined` when one is not there. */
function withKeptLayouts(page: EmbeddedPageData): EmbeddedPageData | undefined {
  const layouts = page.layouts;
  if (layouts === undefined || !layouts.some((layout) => layout.kept === true)) return page;
  const had = current !== undefined && 'page' in current ? (current.page.layouts ?? []) : [];
  const filled: LayoutData[] = [];
  for (const layout of layouts) {
    const kept = layout.kept === true ? had.find((candidate) => candidate.id === layout.id && candidate.kept !== true) : layout;
    if (kept === undefined) return undefined;
    filled.push(kept);
  }
  return { ...page, layouts: filled };
}

/** The branch's modules a page's entry exports (`modules`): each with a component as its default export. */
function routeModulesOf(module: unknown): readonly RouteModule[] | undefined {
  // Object(): any value, null and primitives too, read as an object whose fields may be missing.
  const { modules } = Object(module) as { readonly modules?: unknown };
  if (!Array.isArray(modules) || modules.length === 0) return undefined;
  return modules.every((candidate: unknown) => typeof (Object(candidate) as { readonly default?: unknown }).default === 'function') ? modules : undefined;
}

/** Where an `X-Navigation-Redirect` sends the browser: on this origin only, whatever sent the header (the server never names another). */
function redirectTarget(header: string): URL {
  const target = new URL(header, location.href);
  // A plain Error: the console says why, and the caller fails as for any broken answer.
  if (target.origin !== location.origin) throw new Error(`${NAVIGATION_REDIRECT_HEADER} refused: ${target.origin}`);
  return target;
}

/** Runs a data answer's scripts still to come, as they arrive: deferred values settle in place. */
async function runScripts(stream: AsyncGenerator<unknown>, signal: AbortSignal): Promise<void> {
  for await (const script of stream) {
    if (signal.aborted) break;
    if (typeof script === 'string') runScript(script);
  }
}

/**
 * The view of a form post that failed once it was on its way: the client-side error page of
 * the root error boundary, reached as any exception reaches it (its page throws), so it has
 * the same words, console line, error report and development detail.
 */
function failedSubmission(key: number, error: unknown): View {
  return {
    key,
    page: { data: undefined, params: {} },
    modules: [
      {
        // It closes over this failure's error; each failed post is a new view with its own key anyway.
        default: function FailedSubmission(): never {
          throw error;
        },
      },
    ],
  };
}

interface Go {
  readonly replace?: boolean | undefined;
  /** Back or forward: restore this entry's scroll; the entry is the view's now, no new one. */
  readonly pop?: { readonly scroll?: readonly [number, number] | undefined } | undefined;
  readonly post?: URLSearchParams | undefined;
  /** Redirects followed in place to get here. */
  readonly hops?: number | undefined;
  /** Load every level again, layouts too: the page after a post, or after its redirect. */
  readonly revalidate?: boolean | undefined;
  /** A revalidation of the page on the screen (Navigator.revalidate): shown in place, no pending state; called once it shows. */
  readonly refresh?: (() => void) | undefined;
  /** The post this load follows (a fetcher's, or one whose action redirected here), for the layouts' `shouldRevalidate`. */
  readonly after?: Submission | undefined;
}

/**
 * A new history entry for a load that `landed` there, or the current one replaced; none for a
 * revalidation. Back or forward to a view loaded again gives the entry the new view's key, its
 * scroll kept: the next move there finds this view, and where it was left.
 */
function record(options: Go, key: number, landed: URL): void {
  if (options.refresh !== undefined) return;
  const replace = options.pop !== undefined || options.replace === true || landed.href === location.href;
  if (!replace) saveScroll();
  history[replace ? 'replaceState' : 'pushState']({ ...(options.pop && history.state), key, doc }, '', landed.href);
}

/** A status page, as JSON: the same view and words as the full page. */
async function showStatus(response: Response, options: Go, key: number, landed: URL, signal: AbortSignal): Promise<void> {
  const { digest, message } = Object(await response.json()) as { readonly digest?: unknown; readonly message?: unknown };
  if (signal.aborted) return;
  record(options, key, landed);
  // The server's words for the status: the app's, in the request's language (docs/status-pages.md).
  const said = typeof message === 'string' ? message : statusMessage(response.status);
  // Not kept for back and forward: every status answer is no-store.
  commit(
    { key, status: response.status, message: said, digest: typeof digest === 'string' ? digest : undefined },
    `${response.status}: ${said}`,
    { meta: [{ key: 'name', value: 'robots', content: 'noindex' }] },
    { announce: true },
  );
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
  const styles = stylesOf(landed);
  // In parallel with the code and the data: the page is shown once its CSS is there, never unstyled.
  const styled = loadStyles(styles);
  const initial = (await stream.next()).value;
  if (typeof initial !== 'string') throw new Error('no page');
  runScript(initial);
  const sent = pageDataIn(scope);
  const modules = routeModulesOf(await code);
  await styled;
  if (signal.aborted) return;
  // A layout the server left to the browser that is no longer on the screen (a prefetch made
  // from another page): the page cannot be shown from what is here, so it loads in full.
  const page = sent === undefined ? undefined : withKeptLayouts(sent);
  if (modules === undefined || page === undefined || modules.length !== (page.layouts?.length ?? 0) + 1) throw new Error('no page');
  record(options, key, landed);
  // A revalidation keeps the view's key: the page is not mounted afresh, its state and fields stay.
  commit(
    { key: refresh !== undefined && current !== undefined ? current.key : key, modules, page },
    meta.head.title,
    meta.head,
    { scroll: options.pop?.scroll, hash: landed.hash, announce: true, shown: refresh },
    styles,
    // Layouts filled from the view on the screen (a new object): kept only if that view is.
    meta.keep === true && (page === sent || (current !== undefined && kept.has(current.key))),
  );
  return stream;
}

/** An in-place navigation: the page's data from the server, its code, then the new view. */
async function go(url: URL, options: Go): Promise<void> {
  const { refresh, post } = options;
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
    const fresh = early !== undefined && Date.now() - early.at < PREFETCH_FRESH_MS ? early : undefined;
    const scope = fresh?.scope ?? `n${key}`;
    const response = await (fresh?.response ?? request(url, scope, { signal: controller.signal, post, keep: post === undefined ? keepable(url, revalidate, options.after) : [] }));
    // An action or a load that redirected: go on to where it said, in place, as a new page.
    const redirected = response.headers.get(NAVIGATION_REDIRECT_HEADER);
    if (redirected !== null) {
      const target = redirectTarget(redirected);
      finish();
      // A loop, or a target without code here (a resource route): the browser loads it in full.
      const hops = (options.hops ?? 0) + 1;
      if (hops > MAX_REDIRECTS || !stays(target)) location.assign(target.href);
      else await go(target, { replace: options.replace, hops, revalidate, after: post === undefined ? options.after : submissionOf(url, post) });
      return;
    }
    const landed = new URL(response.url || url.href);
    landed.hash = url.hash;
    const type = response.headers.get('content-type') ?? '';
    // A status page; a resource route's own JSON that is no error is no page (below).
    if (type.startsWith('application/json') && !response.ok) await showStatus(response, options, key, landed, controller.signal);
    else if (type.startsWith('application/x-ndjson')) {
      const rest = await showPage(response, options, key, landed, controller.signal, scope);
      finish();
      if (rest !== undefined) await runScripts(rest, controller.signal);
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
    commit(failedSubmission(key, error), document.title, undefined, { announce: false });
  } finally {
    finish();
  }
}

/** What the runtime keeps in a history entry's state, as any other script may have left it. */
interface EntryState {
  readonly key?: unknown;
  readonly doc?: unknown;
  readonly scroll?: unknown;
}

/** The scroll an entry kept as its page was left (saveScroll). */
function keptScroll({ scroll }: EntryState): readonly [number, number] | undefined {
  // Whatever it holds, scrollTo takes: what is no number scrolls to the top.
  return Array.isArray(scroll) ? (scroll as [number, number]) : undefined;
}

function onPopState(event: PopStateEvent): void {
  // Another fragment of the page on the screen: the browser scrolls by itself, and the page stays.
  if (location.pathname + location.search === here) return;
  const state: EntryState = Object(event.state);
  // -1, which no view has, for an entry that is not this document's.
  const key = state.doc === doc && typeof state.key === 'number' ? state.key : -1;
  // The page being left keeps its scroll for a later forward or back: the browser has changed
  // the address but not yet the scroll, which is still that page's.
  if (current !== undefined) scrolls.set(current.key, [scrollX, scrollY]);
  const restore = scrolls.get(key) ?? keptScroll(state);
  const saved = kept.get(key);
  const url = new URL(location.href);
  if (saved !== undefined) {
    inFlight?.abort();
    commit(saved.view, saved.title, saved.head, { scroll: restore, hash: url.hash, announce: true }, saved.styles, true);
    return;
  }
  if (!stays(url)) location.reload();
  else void go(url, { pop: { scroll: restore } });
}

/** The latest revalidation, which those it replaced wait for. */
let latestRefresh: Promise<void> = Promise.resolve();
/** What the fetchers whose posts are being revalidated run when the page shows again (Navigator.revalidate's `onShow`). */
let revalidated: Array<() => void> = [];

/** Runs the waiting fetchers' `onShow`: inside the update that shows a view, so theirs renders with it. */
function tellRevalidated(): void {
  const waiting = revalidated;
  revalidated = [];
  for (const onShow of waiting) onShow();
}

/**
 * Loads the page on the screen again (React Router's revalidation), after a fetcher's post or by
 * hand (`useRevalidator()`): a GET of the address's data keeping only the layouts whose
 * `shouldRevalidate` says so, shown in place. A navigation under way brings a page loaded
 * afresh anyway, and is left alone.
 */
function revalidate(onShow: () => void, after?: Submission): Promise<void> {
  revalidated.push(onShow);
  if (inFlight !== undefined && inFlight !== refreshing) {
    tellRevalidated();
    return Promise.resolve();
  }
  const run: Promise<void> = new Promise<void>((shown) => {
    void go(new URL(location.href), { revalidate: true, refresh: shown, after }).finally(() => {
      // Ended without showing (failed, or replaced by a navigation): the fetchers wait no more. One
      // replaced by a newer revalidation leaves them to that one.
      if (run === latestRefresh) tellRevalidated();
      shown();
    });
  });
  latestRefresh = run;
  return settled(run);
}

/** Settles once the page shows the latest revalidation: one a newer one replaced waits for that one. */
function settled(run: Promise<void>): Promise<void> {
  return run.then(() => (run === latestRefresh ? undefined : settled(latestRefresh)));
}

/** A fetcher's request (Navigator.fetch): its answer rebuilt in a scope of its own, the page left as it is. */
async function fetchData(url: URL, body: URLSearchParams | undefined, signal: AbortSignal): Promise<FetcherAnswer> {
  const scope = `f${nextKey}`;
  nextKey += 1;
  const response = await request(url, scope, { signal, post: body, fetcher: body !== undefined });
  const redirected = response.headers.get(NAVIGATION_REDIRECT_HEADER);
  if (redirected !== null) {
    // As React Router does: the action's redirect is a navigation, every level loaded afresh.
    const target = redirectTarget(redirected);
    if (stays(target)) return { navigation: go(target, { hops: 1, revalidate: true, after: body === undefined ? undefined : submissionOf(url, body) }) };
    location.assign(target.href);
    return { navigation: Promise.resolve() };
  }
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('application/json')) return { status: response.status, value: await response.json(), json: true };
  if (!type.startsWith('application/x-ndjson')) throw new Error('no page');
  const stream = lines(response);
  // A page's data comes after its meta line; a fetcher's post is answered with the value alone.
  let script: unknown;
  do script = (await stream.next()).value;
  while (isMeta(script));
  if (typeof script !== 'string') throw new Error('no page');
  runScript(script);
  void runScripts(stream, signal).catch(() => undefined);
  return { status: response.status, value: valueIn(scope), json: false };
}

let prefetching = 0;
const waiting: Array<() => void> = [];
const prefetchedCode = new Set<string>();

/** Runs `task` when fewer than MAX_PREFETCHES are in flight; `task` calls `done` when it ends. */
function limit(task: (done: () => void) => void): void {
  const start = () => {
    prefetching += 1;
    task(() => {
      prefetching -= 1;
      waiting.shift()?.();
    });
  };
  if (prefetching < MAX_PREFETCHES) start();
  else waiting.push(start);
}

function prefetchCode(route: ClientRoute): void {
  if (route.script === undefined) return;
  for (const href of [route.script, ...(route.preloads ?? []), ...(route.styles ?? [])]) {
    if (prefetchedCode.has(href) || document.querySelector(`link[href="${href}"],style[data-href="${href}"]`) !== null) continue;
    prefetchedCode.add(href);
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
}

/**
 * The route table's module (server/render/route-table-module.ts), which the page's loader has
 * fetched beside its code. Without it (a deploy has replaced the server since this document
 * came, say) links and forms stay the browser's: every page still loads, in full.
 */
async function importRouteTable(url: string): Promise<readonly ClientRoute[] | undefined> {
  try {
    const module: unknown = await import(url);
    const table: unknown = Reflect.get(Object(module), 'default');
    return Array.isArray(table) ? table : undefined;
  } catch (error) {
    console.error(error);
    return undefined;
  }
}

/**
 * Starts the navigation runtime after hydration: once the route table is in, links and forms of
 * pages with code move in place. `initial` is the view the document was hydrated with,
 * `routeTable` the URL of the table's module; without one, nothing moves in place.
 */
export async function startNavigation(initial: View, routeTable: string | undefined): Promise<void> {
  const table = routeTable === undefined ? undefined : await importRouteTable(routeTable);
  if (table === undefined) return;
  routes = table.map((route) => ({ ...route, pattern: new RegExp(route.source, route.flags) }));
  current = initial;
  nonce = document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce ?? '';
  here = location.pathname + location.search;
  // The document's own view is not kept: its Cache-Control is the document's, which no script
  // can read, and a page's is no-store unless it says otherwise. Back there loads it again.
  // The browser's own restoration would fight the runtime's; so the runtime restores a reload's,
  // and a return from another document's, from the scroll kept in the entry (saveScroll).
  history.scrollRestoration = 'manual';
  // The live region is there from the start: screen readers often miss one filled as it is inserted.
  announce('');
  const scroll = keptScroll(Object(history.state));
  if (scroll !== undefined) scrollTo(...scroll);
  history.replaceState({ ...history.state, key: initial.key, doc }, '');
  addEventListener('popstate', onPopState);
  // Kept as each scroll ends, not as the page goes: Chrome keeps no history change made while a
  // reload or another document unloads this one.
  addEventListener('scrollend', saveScroll);
  installNavigator({
    navigate(url, options) {
      // Same document, another fragment: the browser scrolls by itself.
      if (url.hash !== '' && url.pathname === location.pathname && url.search === location.search) return false;
      if (!stays(url)) return false;
      void go(url, { replace: options?.replace });
      return true;
    },
    submit(form, submitter) {
      const action = new URL(submitter?.getAttribute('formaction') ?? form.getAttribute('action') ?? location.href, location.href);
      const enctype = submitter?.getAttribute('formenctype') ?? form.enctype;
      // The button's own, else the form's: both read lowercase, and empty when not set.
      const button = submitter as HTMLButtonElement | null;
      const target = button?.formTarget || form.target;
      // What the browser would send elsewhere, or otherwise, it sends itself: another window, a search (GET), a file.
      if (!stays(action) || enctype !== 'application/x-www-form-urlencoded' || (button?.formMethod || form.method) !== 'post' || (target !== '' && target !== '_self'))
        return false;
      const body = new URLSearchParams();
      for (const [name, value] of new FormData(form, submitter)) if (typeof value === 'string') body.append(name, value);
      // Once sent, it is never sent again: a failure shows the error page (go, above).
      void go(action, { post: body });
      return true;
    },
    prefetch(url, data) {
      const route = url.origin === location.origin ? routeOf(url) : undefined;
      if (route?.script === undefined) return;
      prefetchCode(route);
      if (!data || prefetched.has(url.href)) return;
      limit((done) => {
        const scope = `p${nextKey}`;
        nextKey += 1;
        const response = request(url, scope, { keep: keepable(url, false) });
        prefetched.set(url.href, { at: Date.now(), scope, response });
        response.then(done, done);
      });
    },
    fetch: fetchData,
    revalidate,
  });
}
