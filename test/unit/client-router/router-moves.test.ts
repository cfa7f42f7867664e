import { afterEach, describe, expect, test, vi } from 'vitest';
import type { RouteModule, View } from '../../../client/view.ts';
import { NAVIGATION_FETCHER_HEADER, NAVIGATION_HEADER, NAVIGATION_KEEP_HEADER, NAVIGATION_SCOPE_HEADER } from '../../../shared/protocol/navigation-headers.ts';
import {
  endRequests,
  exampleUrl,
  type FetchCall,
  type fakeBrowser,
  INITIAL_VIEW,
  LAYOUT_PAGE_MODULE,
  pageAnswer,
  redirectAnswer,
  settle,
  startRouter,
  statusAnswer,
} from './fake-browser.ts';

/**
 * More of the navigation runtime's promises (docs/navigation.md), driven as router.test.ts drives
 * it: which addresses move in place, what its requests ask for, what back and forward do with
 * entries, scrolls and the memory, prefetches, fetchers' requests, revalidations, the progress
 * bar and view transitions.
 */
const ROUTES = [
  { source: '^\\/(?:a|b|c|d|old|new|layouts\\/\\w+)\\/?$', flags: 'i', script: '/assets/page.js' },
  { source: '^\\/styled\\/?$', flags: 'i', script: '/assets/styled.js', styles: ['/assets/styled.css'] },
  { source: '^\\/file\\/?$', flags: 'i' },
];
function start(at?: string, initial: View = INITIAL_VIEW, before?: Parameters<typeof startRouter>[3]) {
  return startRouter(ROUTES, at, initial, before);
}

const url = exampleUrl;

function call(browser: ReturnType<typeof fakeBrowser>, index: number): FetchCall {
  const made = browser.calls[index];
  if (made === undefined) throw new Error(`no request ${index}`);
  return made;
}

/** Goes to /a, then to /b, each answer kept in the view memory (the answers' keep). */
async function visitKept({ browser, router, titles }: ReturnType<typeof start>): Promise<void> {
  router.navigate(url('/a'));
  call(browser, 0).answer(pageAnswer(call(browser, 0), { title: 'A', data: 'a', keep: true }));
  await settle(() => expect(titles()).toEqual(['a']));
  router.navigate(url('/b'));
  call(browser, 1).answer(pageAnswer(call(browser, 1), { title: 'B', data: 'b', keep: true }));
  await settle(() => expect(titles()).toEqual(['a', 'b']));
}

/** Runs what a stand-in element's browser would on its load or failure. */
function settleLink(link: unknown, event: 'onload' | 'onerror'): void {
  const handler: unknown = link === undefined ? undefined : Reflect.get(Object(link), event);
  if (typeof handler !== 'function') throw new Error(`no ${event}`);
  handler();
}

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

afterEach(async () => {
  await endRequests();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// First: a progress timer left by a test further down would fire into the next test's document.
describe('what the document shows meanwhile', () => {
  /** The document's classes, and when each was last added (performance.now()). */
  function recordClasses(browser: ReturnType<typeof fakeBrowser>) {
    const classes = new Map<string, number>();
    browser.document.documentElement.classList = {
      add: (name: string) => void classes.set(name, performance.now()),
      remove: (name: string) => void classes.delete(name),
    } as never;
    return classes;
  }

  test('a navigation still loading after 200 ms shows the progress bar, never sooner, until its page is there', async () => {
    const { browser, router, titles } = start();
    const classes = recordClasses(browser);
    const started = performance.now();
    router.navigate(url('/a'));
    // Timers never fire early; a loaded machine only makes them later.
    await settle(() => expect(classes.has('nav-pending')).toBe(true));
    expect((classes.get('nav-pending') ?? 0) - started).toBeGreaterThanOrEqual(190);
    call(browser, 0).answer(pageAnswer(call(browser, 0), { title: 'A', data: 'a' }));
    await settle(() => expect(titles()).toEqual(['a']));
    await settle(() => expect(classes.has('nav-pending')).toBe(false));
  });

  test('a revalidation shows no progress bar', async () => {
    const { browser, router } = start('https://example.test/a');
    const classes = recordClasses(browser);
    void router.revalidate(() => undefined);
    await pause(300);
    expect(classes.has('nav-pending')).toBe(false);
    expect(browser.calls).toHaveLength(1);
  });

  test('a new view comes in a view transition, whose skipped animation is no error; not when motion is unwelcome, nor on a revalidation', async () => {
    const { browser, router, titles } = start('https://example.test/a');
    const transitions: string[] = [];
    Object.assign(browser.document, {
      startViewTransition(update: () => void) {
        transitions.push('started');
        update();
        return { ready: Promise.reject(new Error('Transition was skipped')) };
      },
    });
    router.navigate(url('/b'));
    call(browser, 0).answer(pageAnswer(call(browser, 0), { title: 'B', data: 'b' }));
    await settle(() => expect(titles()).toEqual(['b']));
    expect(transitions).toEqual(['started']);
    const revalidated = router.revalidate(() => undefined);
    call(browser, 1).answer(pageAnswer(call(browser, 1), { title: 'B', data: 'b again' }));
    await revalidated;
    expect(transitions).toEqual(['started']);
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(prefers-reduced-motion: reduce)' }));
    router.navigate(url('/c'));
    call(browser, 2).answer(pageAnswer(call(browser, 2), { title: 'C', data: 'c' }));
    await settle(() => expect(titles()).toEqual(['b', 'b again', 'c']));
    expect(transitions).toEqual(['started']);
  });
});

describe('which moves stay in the page', () => {
  test('another fragment of this page, another origin and a route without code are left to the browser; an address no route knows stays', () => {
    const { browser, router } = start('https://example.test/a');
    expect(router.navigate(url('/a#part'))).toBe(false);
    expect(router.navigate(new URL('https://elsewhere.test/a'))).toBe(false);
    expect(router.navigate(url('/file'))).toBe(false);
    expect(browser.calls).toHaveLength(0);
    // A fragment of another page is a move, to that page.
    expect(router.navigate(url('/b#part'))).toBe(true);
    // No route: the server's 404 shows in place.
    expect(router.navigate(url('/nowhere'))).toBe(true);
    expect(browser.calls.map((made) => made.url.pathname)).toEqual(['/b', '/nowhere']);
  });

  test('the data request names the runtime, its scope and what it accepts', () => {
    const { browser, router } = start();
    router.navigate(url('/a'));
    router.navigate(url('/b'));
    expect(call(browser, 0).headers).toEqual({ [NAVIGATION_HEADER]: 'data', [NAVIGATION_SCOPE_HEADER]: 'n1', accept: 'application/x-ndjson,application/json;q=0.9' });
    expect(call(browser, 1).headers[NAVIGATION_SCOPE_HEADER]).toBe('n2');
    expect(call(browser, 0).method).toBe('GET');
  });
});

describe('answers that are no page of ours load in full', () => {
  test.each([
    ['a redirect to another origin', () => redirectAnswer('https://elsewhere.test/b')],
    ["a resource route's JSON that is no error", () => new Response('{"ok":true}', { headers: { 'content-type': 'application/json' } })],
    ['a file', () => new Response('text', { headers: { 'content-type': 'text/plain' } })],
    ['an answer without a type', () => new Response('text')],
  ])('%s: the browser loads the address asked for', async (_case, answer) => {
    const { browser, router, titles } = start();
    router.navigate(url('/a'));
    call(browser, 0).answer(answer());
    await settle(() => expect(browser.assigned).toEqual(['https://example.test/a']));
    expect(browser.calls).toHaveLength(1);
    expect(titles()).toEqual([]);
  });

  test('a page whose code exports no modules, or too few for its layouts, loads in full', async () => {
    const { browser, router } = start();
    router.navigate(url('/a'));
    call(browser, 0).answer(pageAnswer(call(browser, 0), { title: 'A', data: 'a', script: new URL('./fake-browser.ts', import.meta.url).pathname }));
    await settle(() => expect(browser.assigned).toEqual(['https://example.test/a']));
    router.navigate(url('/b'));
    call(browser, 1).answer(
      pageAnswer(call(browser, 1), {
        title: 'B',
        data: 'b',
        layouts: [
          { id: 'root', data: 'r' },
          { id: 'inner', data: 'i' },
        ],
        script: LAYOUT_PAGE_MODULE,
      }),
    );
    await settle(() => expect(browser.assigned).toEqual(['https://example.test/a', 'https://example.test/b']));
  });

  test('a status answer names the status in the title and is shown with noindex, under its own entry', async () => {
    const { browser, router, shown } = start();
    router.navigate(url('/a'));
    call(browser, 0).answer(statusAnswer(410, 'Gone.'));
    await settle(() => expect(shown).toHaveLength(1));
    expect(shown[0]).toMatchObject({ status: 410, message: 'Gone.', key: 1 });
    expect(browser.document.title).toBe('410: Gone.');
    expect(browser.entries()).toEqual(['https://example.test/', 'https://example.test/a']);
  });
});

describe('history', () => {
  test('an answer from another address (fetch followed a redirect) is recorded at that address, with the fragment asked for', async () => {
    const { browser, router } = start();
    router.navigate(url('/a#part'));
    call(browser, 0).answer(pageAnswer(call(browser, 0), { title: 'B', data: 'b', url: 'https://example.test/b' }));
    await settle(() => expect(browser.entries()).toEqual(['https://example.test/', 'https://example.test/b#part']));
  });

  test('a move to the address on the screen, or with replace, replaces its entry; a new one keeps the scroll of the page left', async () => {
    const { browser, router, titles } = start('https://example.test/a');
    router.navigate(url('/a'));
    call(browser, 0).answer(pageAnswer(call(browser, 0), { title: 'A', data: 'a' }));
    await settle(() => expect(titles()).toEqual(['a']));
    expect(browser.entries()).toEqual(['https://example.test/a']);
    router.navigate(url('/b'), { replace: true });
    call(browser, 1).answer(pageAnswer(call(browser, 1), { title: 'B', data: 'b' }));
    await settle(() => expect(titles()).toEqual(['a', 'b']));
    expect(browser.entries()).toEqual(['https://example.test/b']);
    browser.scrollBy(0, 420);
    router.navigate(url('/c'));
    call(browser, 2).answer(pageAnswer(call(browser, 2), { title: 'C', data: 'c' }));
    await settle(() => expect(titles()).toEqual(['a', 'b', 'c']));
    expect(browser.entries()).toEqual(['https://example.test/b', 'https://example.test/c']);
    expect(browser.states()[0]).toMatchObject({ key: 2, scroll: [0, 420] });
    expect(browser.states()[1]).toMatchObject({ key: 3 });
    expect(browser.states()[1]).not.toHaveProperty('scroll');
  });

  test("at start the runtime marks the entry as its own, keeps what it held and restores its scroll; each scroll's end is kept in it", () => {
    const { browser } = start('https://example.test/', INITIAL_VIEW, (fresh) => fresh.history.replaceState({ scroll: [0, 640], other: 'kept' }, ''));
    expect(browser.scrolled).toEqual([[0, 640]]);
    expect(browser.history.scrollRestoration).toBe('manual');
    expect(browser.states()[0]).toMatchObject({ key: 0, other: 'kept', doc: expect.any(Number) });
    browser.scrollBy(0, 80);
    browser.fire('scrollend');
    expect(browser.states()[0]).toMatchObject({ key: 0, other: 'kept', scroll: [0, 80] });
  });

  test('an entry without a kept scroll scrolls nothing at start', () => {
    const { browser } = start();
    expect(browser.scrolled).toEqual([]);
  });

  test('back to another fragment of the page on the screen does nothing', async () => {
    const { browser, router, shown } = start('https://example.test/a');
    browser.history.pushState(null, '', '/a#part');
    browser.go(-1);
    await pause(20);
    expect(browser.calls).toHaveLength(0);
    expect(shown).toHaveLength(0);
    expect(router.navigate(url('/b'))).toBe(true);
  });

  test("an entry another document made is not looked up in this one's memory, whatever key it holds", async () => {
    const { browser, router, titles } = start('https://example.test/b', INITIAL_VIEW, (fresh) => {
      fresh.history.replaceState({ key: 1, doc: 0.25 }, '', '/c');
      fresh.history.pushState(null, '', '/b');
    });
    router.navigate(url('/a'));
    call(browser, 0).answer(pageAnswer(call(browser, 0), { title: 'A', data: 'a', keep: true }));
    await settle(() => expect(titles()).toEqual(['a']));
    expect(browser.states()[2]).toMatchObject({ key: 1 });
    browser.go(-2);
    expect(titles()).toEqual(['a']);
    expect(browser.calls).toHaveLength(2);
    expect(call(browser, 1).url.pathname).toBe('/c');
  });

  test("back to an address without code here reloads it; back to one with code loads it in place, at the entry's own scroll", async () => {
    const { browser, router, titles } = start('https://example.test/a', INITIAL_VIEW, (fresh) => {
      fresh.history.replaceState({ scroll: [0, 90] }, '', '/file');
      fresh.history.pushState(null, '', '/d');
      fresh.history.replaceState({ scroll: [0, 55] }, '');
      fresh.history.pushState(null, '', '/a');
    });
    browser.go(-1);
    expect(call(browser, 0).url.pathname).toBe('/d');
    call(browser, 0).answer(pageAnswer(call(browser, 0), { title: 'D', data: 'd' }));
    await settle(() => expect(titles()).toEqual(['d']));
    router.shown();
    expect(browser.scrolled).toEqual([[0, 55]]);
    // The entry is the view's now: no new one.
    expect(browser.entries()).toHaveLength(3);
    browser.go(-1);
    expect(browser.reloads).toEqual(['https://example.test/file']);
  });
});

describe('the view memory', () => {
  test('a view shown from memory on back is kept in memory still, and back there aborts the request under way', async () => {
    const view = start();
    const { browser, router, shown } = view;
    await visitKept(view);
    router.navigate(url('/c'));
    browser.go(-1);
    expect(call(browser, 2).signal?.aborted).toBe(true);
    expect(shown[2]).toBe(shown[0]);
    browser.go(1);
    expect(shown[3]).toBe(shown[1]);
    browser.go(-1);
    expect(shown[4]).toBe(shown[0]);
    expect(browser.calls).toHaveLength(3);
  });

  test('a view loaded again without keep is no longer kept', async () => {
    const view = start();
    const { browser, router, titles } = view;
    await visitKept(view);
    // A revalidation of b that is not kept: back to b later asks again.
    const revalidated = router.revalidate(() => undefined);
    call(browser, 2).answer(pageAnswer(call(browser, 2), { title: 'B', data: 'b again' }));
    await revalidated;
    browser.go(-1);
    expect(titles()).toEqual(['a', 'b', 'b again', 'a']);
    browser.go(1);
    expect(browser.calls).toHaveLength(4);
    expect(call(browser, 3).url.pathname).toBe('/b');
  });
});

describe('the layouts a request keeps', () => {
  const layouts = (modules: RouteModule[] = [{ default: () => null }, { default: () => null }, { default: () => null }]): View => ({
    key: 0,
    modules,
    page: {
      data: 'one',
      params: {},
      layouts: [
        { id: 'root', data: 'r' },
        { id: 'inner', data: 'i' },
      ],
    },
  });

  test('another path keeps every layout; the same path or another query keeps none', () => {
    const { browser, router } = start('https://example.test/layouts/one?x=1', layouts());
    router.navigate(url('/layouts/two?x=1'));
    router.navigate(url('/layouts/one?x=1'));
    router.navigate(url('/layouts/two?x=2'));
    expect(browser.calls.map((made) => made.headers[NAVIGATION_KEEP_HEADER])).toEqual(['root,inner', undefined, undefined]);
  });

  test("a layout's shouldRevalidate has the last word, told what moves; those past a failed level keep nothing", () => {
    const asked: unknown[] = [];
    const modules: RouteModule[] = [
      {
        default: () => null,
        shouldRevalidate: (args) => {
          asked.push(args);
          return true;
        },
      },
      { default: () => null, shouldRevalidate: () => false },
      { default: () => null },
    ];
    const { browser, router } = start('https://example.test/layouts/one', layouts(modules));
    router.navigate(url('/layouts/one'));
    expect(call(browser, 0).headers[NAVIGATION_KEEP_HEADER]).toBe('inner');
    expect(asked).toEqual([{ currentUrl: url('/layouts/one'), nextUrl: url('/layouts/one'), formMethod: undefined, defaultShouldRevalidate: true }]);
    const failed: View = {
      key: 0,
      modules: [{ default: () => null }, { default: () => null }, { default: () => null }],
      page: {
        data: undefined,
        params: {},
        layouts: [
          { id: 'root', data: 'r' },
          { id: 'inner', data: 'i' },
        ],
        failure: { at: 1, error: { message: 'x' } as never },
      },
    };
    const second = start('https://example.test/layouts/one', failed);
    second.router.navigate(url('/layouts/two'));
    expect(call(second.browser, 0).headers[NAVIGATION_KEEP_HEADER]).toBe('root');
  });

  test('a status view on the screen keeps nothing', () => {
    const { browser, router } = start('https://example.test/layouts/one', { key: 0, status: 404, message: 'Nothing here.' });
    router.navigate(url('/layouts/two'));
    expect(call(browser, 0).headers[NAVIGATION_KEEP_HEADER]).toBeUndefined();
  });
});

describe('prefetches', () => {
  function recordLinks(browser: ReturnType<typeof fakeBrowser>) {
    const links: Array<Record<string, unknown>> = [];
    const append = browser.document.head.append;
    browser.document.head.append = (child) => {
      if (child.tag === 'link') links.push(child as unknown as Record<string, unknown>);
      else append(child);
    };
    return links;
  }

  test("fetch a route's code and stylesheets once each, with the page's nonce, and its data for the next move there, which asks no more", async () => {
    const { browser, router, titles } = start('https://example.test/', INITIAL_VIEW, (fresh) => {
      fresh.document.querySelector = ((selector: string) => (selector === 'script[nonce]' ? { nonce: 'n0nce' } : null)) as never;
    });
    const links = recordLinks(browser);
    router.prefetch(url('/a'), true);
    router.prefetch(url('/a'), true);
    router.prefetch(url('/styled'), false);
    // Three at once: the code of /a, its data, the code of /styled; its stylesheet waits for one of them.
    expect(links.map((link) => [link.rel, link.href, link.nonce])).toEqual([
      ['modulepreload', '/assets/page.js', 'n0nce'],
      ['modulepreload', '/assets/styled.js', 'n0nce'],
    ]);
    settleLink(links[0], 'onload');
    expect(links.map((link) => [link.rel, link.href])).toEqual([
      ['modulepreload', '/assets/page.js'],
      ['modulepreload', '/assets/styled.js'],
      ['prefetch', '/assets/styled.css'],
    ]);
    expect(browser.calls).toHaveLength(1);
    expect(call(browser, 0).headers[NAVIGATION_SCOPE_HEADER]).toBe('p1');
    router.navigate(url('/a'));
    expect(browser.calls).toHaveLength(1);
    call(browser, 0).answer(pageAnswer(call(browser, 0), { title: 'A', data: 'a' }));
    await settle(() => expect(titles()).toEqual(['a']));
    // Taken once: the next move there asks afresh.
    router.navigate(url('/a'));
    expect(browser.calls).toHaveLength(2);
  });

  test('of another origin, a route without code, or a file the document has, fetch nothing', () => {
    const { browser, router } = start('https://example.test/', INITIAL_VIEW, (fresh) => {
      fresh.document.querySelector = ((selector: string) => (selector.includes('/assets/styled.css') ? {} : null)) as never;
    });
    const links = recordLinks(browser);
    router.prefetch(new URL('https://elsewhere.test/a'), true);
    router.prefetch(url('/file'), true);
    expect(links).toEqual([]);
    router.prefetch(url('/styled'), false);
    expect(links.map((link) => link.href)).toEqual(['/assets/styled.js']);
    expect(browser.calls).toHaveLength(0);
  });

  test('three run at once; the next starts as one ends', async () => {
    const { browser, router } = start();
    const links = recordLinks(browser);
    router.prefetch(url('/a'), true);
    router.prefetch(url('/b'), true);
    router.prefetch(url('/c'), true);
    router.prefetch(url('/d'), true);
    // The code is one; the first two pages' data the others.
    expect(links).toHaveLength(1);
    expect(browser.calls.map((made) => made.url.pathname)).toEqual(['/a', '/b']);
    settleLink(links[0], 'onload');
    expect(browser.calls.map((made) => made.url.pathname)).toEqual(['/a', '/b', '/c']);
    call(browser, 0).answer(new Response(''));
    await settle(() => expect(browser.calls.map((made) => made.url.pathname)).toEqual(['/a', '/b', '/c', '/d']));
  });

  test('older than ten seconds, or before a post, a prefetch stands in for nothing', async () => {
    const { browser, router } = start();
    const links = recordLinks(browser);
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_000_000);
    router.prefetch(url('/a'), true);
    // The code and the first prefetch end: they leave room for the next.
    settleLink(links[0], 'onload');
    call(browser, 0).answer(new Response(''));
    now.mockReturnValue(1_010_000);
    router.navigate(url('/a'));
    expect(browser.calls.map((made) => made.headers[NAVIGATION_SCOPE_HEADER])).toEqual(['p1', 'n1']);
    now.mockReturnValue(1_020_000);
    router.prefetch(url('/b'), true);
    now.mockReturnValue(1_029_999);
    router.navigate(url('/b'));
    expect(browser.calls).toHaveLength(3);
    router.prefetch(url('/c'), true);
    void router.fetch(url('/a'), new URLSearchParams({ name: 'Ada' }), new AbortController().signal, () => undefined, undefined);
    router.navigate(url('/c'));
    expect(browser.calls.map((made) => made.headers[NAVIGATION_SCOPE_HEADER])).toEqual(['p1', 'n1', 'p2', 'p3', 'f1', 'n3']);
  });
});

describe("a fetcher's requests", () => {
  test("a JSON answer under 400 is its value; from 400 it fails with the answer's words; a load is the page data in a scope of its own", async () => {
    const { browser, router } = start();
    const signal = new AbortController().signal;
    const states: unknown[] = [];
    const show = (state: string, data: unknown) => states.push([state, data]);
    const items = router.fetch(url('/api'), undefined, signal, show, undefined);
    expect(call(browser, 0).method).toBe('GET');
    expect(call(browser, 0).headers[NAVIGATION_FETCHER_HEADER]).toBeUndefined();
    call(browser, 0).answer(Response.json({ items: [1, 2] }));
    await items;
    expect(states).toEqual([['idle', { items: [1, 2] }]]);
    const refused = router.fetch(url('/a'), undefined, signal, show, undefined);
    call(browser, 1).answer(statusAnswer(403, 'No.'));
    await expect(refused).rejects.toEqual({ status: 403, statusText: 'No.', data: undefined });
    const load = router.fetch(url('/b'), undefined, signal, show, undefined);
    call(browser, 2).answer(pageAnswer(call(browser, 2), { title: 'B', data: 'b data' }));
    await load;
    expect(states).toEqual([
      ['idle', { items: [1, 2] }],
      ['idle', 'b data'],
    ]);
    expect(call(browser, 2).headers[NAVIGATION_SCOPE_HEADER]).toBe('f3');
  });

  test('an answer that is no page fails; one with no data after its meta line too', async () => {
    const { browser, router } = start();
    const signal = new AbortController().signal;
    const file = router.fetch(url('/a'), undefined, signal, () => undefined, undefined);
    call(browser, 0).answer(new Response('text', { headers: { 'content-type': 'text/plain' } }));
    await expect(file).rejects.toThrow('no page');
    const empty = router.fetch(url('/a'), undefined, signal, () => undefined, undefined);
    call(browser, 1).answer(new Response('', { headers: { 'content-type': 'application/x-ndjson' } }));
    await expect(empty).rejects.toThrow('no page');
  });

  test("an action's redirect is a navigation there, every level loaded afresh; the fetcher loads until it is shown", async () => {
    const layouts: View = { key: 0, modules: [{ default: () => null }, { default: () => null }], page: { data: 'one', params: {}, layouts: [{ id: 'root', data: 'r' }] } };
    const { browser, router, titles } = start('https://example.test/layouts/one', layouts);
    const states: string[] = [];
    const posted = { formAction: '/layouts/one', formData: new FormData() };
    const answer = router.fetch(url('/layouts/one'), new URLSearchParams({ name: 'Ada' }), new AbortController().signal, (state) => states.push(state), posted);
    call(browser, 0).answer(redirectAnswer('/layouts/two'));
    await settle(() => expect(browser.calls).toHaveLength(2));
    expect(states).toEqual(['loading']);
    expect(call(browser, 1).url.pathname).toBe('/layouts/two');
    expect(call(browser, 1).method).toBe('GET');
    expect(call(browser, 1).headers[NAVIGATION_KEEP_HEADER]).toBeUndefined();
    call(browser, 1).answer(pageAnswer(call(browser, 1), { title: 'Two', data: 'two', layouts: [{ id: 'root', data: 'r2' }], script: LAYOUT_PAGE_MODULE }));
    await answer;
    expect(states).toEqual(['loading', 'idle']);
    expect(titles()).toEqual(['two']);
    expect(browser.entries()).toEqual(['https://example.test/layouts/one', 'https://example.test/layouts/two']);
  });
});

describe('revalidations', () => {
  test('while a navigation is under way, none is made: the fetchers are told at once', async () => {
    const { browser, router } = start();
    router.navigate(url('/a'));
    const told: string[] = [];
    await router.revalidate(() => told.push('told'));
    expect(told).toEqual(['told']);
    expect(browser.calls).toHaveLength(1);
  });

  test('one that fails leaves the page as it was and tells its fetchers; a newer one replaces an older, which waits for it', async () => {
    const { browser, router, titles } = start('https://example.test/a');
    const told: string[] = [];
    const failed = router.revalidate(() => told.push('failed'));
    call(browser, 0).answer(new Response('text', { headers: { 'content-type': 'text/plain' } }));
    await failed;
    expect(told).toEqual(['failed']);
    expect(browser.assigned).toEqual([]);
    expect(titles()).toEqual([]);
    let firstDone = false;
    const first = router
      .revalidate(() => told.push('first'))
      .then(() => {
        firstDone = true;
      });
    const second = router.revalidate(() => told.push('second'));
    expect(call(browser, 1).signal?.aborted).toBe(true);
    await pause(20);
    expect(firstDone).toBe(false);
    expect(told).toEqual(['failed']);
    call(browser, 2).answer(pageAnswer(call(browser, 2), { title: 'A', data: 'a again' }));
    await Promise.all([first, second]);
    expect(told).toEqual(['failed', 'first', 'second']);
    expect(titles()).toEqual(['a again']);
  });

  test('a navigation replaces a revalidation, never the other way round', async () => {
    const { browser, router, titles } = start('https://example.test/a');
    void router.revalidate(() => undefined);
    router.navigate(url('/b'));
    expect(call(browser, 0).signal?.aborted).toBe(true);
    const told: string[] = [];
    await router.revalidate(() => told.push('told'));
    expect(told).toEqual(['told']);
    expect(call(browser, 1).signal?.aborted).toBe(false);
    call(browser, 1).answer(pageAnswer(call(browser, 1), { title: 'B', data: 'b' }));
    await settle(() => expect(titles()).toEqual(['b']));
  });
});
