import { runInThisContext } from 'node:vm';
import { vi } from 'vitest';
import { createRouter, type Router } from '../../../client/router/create-router.ts';
import { claimHistory } from '../../../client/router/history-entry.ts';
import { RUNTIME_HOST } from '../../../client/router/runtime-host.ts';
import type { View } from '../../../client/view.ts';
import { createDataStream } from '../../../server/render/data-stream.ts';
import { NAVIGATION_REDIRECT_HEADER, NAVIGATION_SCOPE_HEADER } from '../../../shared/protocol/navigation-headers.ts';
import type { PageDataMeta } from '../../../shared/protocol/page-data.ts';

/** A fetch the router made: its address, method and headers, and a way to answer it when the test says. */
export interface FetchCall {
  readonly url: URL;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  readonly signal: AbortSignal | undefined;
  answer(response: Response): void;
}

export const PAGE_MODULE = new URL('./page-module.ts', import.meta.url).pathname;
export const LAYOUT_PAGE_MODULE = new URL('./layout-page-module.ts', import.meta.url).pathname;

/**
 * A page's data answer as the server writes it (server/render/page-data-answer.ts): the meta line,
 * then the data as the real serializer writes it (server/render/data-stream.ts) into the scope the
 * request named.
 */
export function pageAnswer(
  call: FetchCall,
  { title, data, keep = false, layouts, script = PAGE_MODULE, url }: { title: string; data?: unknown; keep?: boolean; layouts?: readonly unknown[]; script?: string; url?: string },
): Response {
  const scope = call.headers[NAVIGATION_SCOPE_HEADER] ?? '';
  const meta: PageDataMeta = {
    route: call.url.pathname,
    head: { title, html: { lang: 'en', dir: '' }, canonical: undefined, meta: [] },
    assets: { script, preloads: [] },
    ...(keep ? { keep: true } : {}),
  };
  const stream = createDataStream(
    { data, params: {}, ...(layouts === undefined ? {} : { layouts }) },
    { onScript: () => undefined, onDone: () => undefined, onError: () => undefined },
    scope,
  );
  const body = `${JSON.stringify(meta)}\n${JSON.stringify(stream.initial)}\n`;
  const response = new Response(body, { status: 200, headers: { 'content-type': 'application/x-ndjson; charset=utf-8' } });
  // What fetch reports as the answer's address, after any redirect it followed itself.
  Object.defineProperty(response, 'url', { value: url ?? call.url.href });
  return response;
}

/** An action's or a load's redirect, as the server answers a navigation's request for data. */
export function redirectAnswer(location: string): Response {
  return new Response(null, { status: 204, headers: { [NAVIGATION_REDIRECT_HEADER]: location } });
}

/** A status answer (server/errors/status-json): its words as JSON. */
export function statusAnswer(status: number, message: string): Response {
  return new Response(JSON.stringify({ message }), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

interface Entry {
  url: string;
  state: unknown;
}

/** The requests of every fake browser that no test has answered, nor the router aborted, yet. */
const unanswered = new Set<() => void>();

/**
 * What a test left under way is still running on its timers when it ends: a navigation whose
 * request was never answered shows its progress bar 200 ms after it began (create-router.ts),
 * on the stand-in document. Call before `vi.unstubAllGlobals()`: while a request is left
 * unanswered, it waits out that delay, so the timer finds the document it was set for.
 */
export async function endRequests(): Promise<void> {
  if (unanswered.size === 0) return;
  unanswered.clear();
  await new Promise((done) => setTimeout(done, 250));
}

/**
 * The browser the router runs in, without one: an address and a history that move together, a
 * document that runs the scripts added to its head (the server's data scripts), the scroll, and
 * a fetch whose answers the test gives. The globals go with `vi.unstubAllGlobals()`.
 */
export function fakeBrowser(start: string) {
  const entries: Entry[] = [{ url: start, state: null }];
  let index = 0;
  const listeners = new Map<string, Array<(event: unknown) => void>>();
  const scrolled: Array<readonly [number, number]> = [];
  const assigned: string[] = [];
  const reloads: string[] = [];
  const calls: FetchCall[] = [];
  const url = () => new URL(entries[index]?.url ?? start);
  const location = {
    get href() {
      return url().href;
    },
    get origin() {
      return url().origin;
    },
    get pathname() {
      return url().pathname;
    },
    get search() {
      return url().search;
    },
    get hash() {
      return url().hash;
    },
    hostname: 'example.test',
    assign: (href: string) => assigned.push(href),
    reload: () => reloads.push(url().href),
  };
  const history = {
    scrollRestoration: 'auto',
    get state() {
      return entries[index]?.state;
    },
    pushState(state: unknown, _title: string, href: string) {
      entries.splice(index + 1);
      entries.push({ url: new URL(href, url()).href, state });
      index = entries.length - 1;
    },
    replaceState(state: unknown, _title: string, href?: string) {
      entries[index] = { url: href === undefined ? url().href : new URL(href, url()).href, state };
    },
    get length() {
      return entries.length;
    },
  };
  const element = (tag: string) => ({
    tag,
    textContent: '',
    nonce: '',
    remove: () => undefined,
    setAttribute: () => undefined,
    hasAttribute: () => false,
    focus: () => undefined,
    classList: { add: () => undefined, remove: () => undefined },
  });
  const document = {
    title: 'start',
    head: {
      append(child: { tag: string; textContent: string }) {
        // The server's data scripts build the page's values, as a browser runs them.
        if (child.tag === 'script') runInThisContext(child.textContent);
      },
      querySelectorAll: () => [],
    },
    body: { append: () => undefined },
    documentElement: { classList: { add: () => undefined, remove: () => undefined } },
    activeElement: null,
    createElement: element,
    getElementById: () => null,
    querySelector: () => null,
  };
  vi.stubGlobal('self', globalThis);
  vi.stubGlobal('document', document);
  vi.stubGlobal('location', location);
  vi.stubGlobal('scrollX', 0);
  vi.stubGlobal('scrollY', 0);
  vi.stubGlobal('scrollTo', (x: number, y: number) => scrolled.push([x, y]));
  vi.stubGlobal('matchMedia', () => ({ matches: false }));
  vi.stubGlobal('addEventListener', (type: string, listener: (event: unknown) => void) => listeners.set(type, [...(listeners.get(type) ?? []), listener]));
  const fetch = (input: URL | RequestInfo, init: RequestInit = {}) =>
    new Promise<Response>((resolve, reject) => {
      const abort = () => {
        unanswered.delete(abort);
        reject(new DOMException('aborted', 'AbortError'));
      };
      unanswered.add(abort);
      init.signal?.addEventListener('abort', abort);
      calls.push({
        url: new URL(input instanceof Request ? input.url : input),
        method: init.method ?? 'GET',
        headers: Object(init.headers),
        body: init.body === undefined ? undefined : String(init.body),
        signal: init.signal ?? undefined,
        answer: (response: Response) => {
          unanswered.delete(abort);
          resolve(response);
        },
      });
    });
  /** Moves in history as back (-1) and forward (1) do: the address first, then `popstate`, the scroll still the page's that is left. */
  function go(delta: number): void {
    index += delta;
    for (const listener of listeners.get('popstate') ?? []) listener({ state: entries[index]?.state });
  }
  /** Runs the listeners the router added for `type` (a `scrollend`, say). */
  function fire(type: string, event: unknown = {}): void {
    for (const listener of listeners.get(type) ?? []) listener(event);
  }
  function scrollBy(x: number, y: number): void {
    vi.stubGlobal('scrollX', x);
    vi.stubGlobal('scrollY', y);
  }
  return {
    location,
    history,
    document,
    fetch: vi.fn(fetch),
    calls,
    assigned,
    reloads,
    scrolled,
    go,
    scrollBy,
    fire,
    entries: () => entries.map((entry) => entry.url),
    states: () => entries.map((entry) => entry.state),
    index: () => index,
  };
}

/** The page the router starts on, as hydration hands it over. */
export const INITIAL_VIEW: View = { key: 0, modules: [{ default: () => null }], page: { data: 'home', params: {} } };

type RouteTable = Parameters<typeof createRouter>[2];

/**
 * A router made by createRouter on a fake browser at `at`, keeping every view it shows (what
 * React does once a view is on the screen, the Router component's effect). `before` sets up the
 * browser before the router reads it.
 */
export function startRouter(routes: RouteTable, at = 'https://example.test/', initial: View = INITIAL_VIEW, before?: (browser: ReturnType<typeof fakeBrowser>) => void) {
  const browser = fakeBrowser(at);
  before?.(browser);
  const shown: View[] = [];
  // As the page's first-load code does once it has hydrated (client/router.tsx): the history first.
  const history = browser.history as unknown as History;
  const claim = claimHistory(history, initial.key);
  const router: Router = createRouter(
    history,
    browser.fetch,
    routes,
    initial,
    (view) => {
      shown.push(view);
    },
    claim,
    RUNTIME_HOST,
  );
  const titles = () => shown.map((view) => ('page' in view ? view.page.data : view.status));
  return { browser, router, shown, titles };
}

export const exampleUrl = (path: string) => new URL(path, 'https://example.test/');

/** Lets the router read an answer, import its page's code and show it. */
export async function settle(check: () => void): Promise<void> {
  await vi.waitFor(check, { timeout: 2000, interval: 5 });
}
