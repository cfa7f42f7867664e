import { afterEach, describe, expect, test, vi } from 'vitest';
import type { View } from '../../../client/view.ts';
import { NAVIGATION_FETCHER_HEADER, NAVIGATION_KEEP_HEADER } from '../../../shared/protocol/navigation-headers.ts';
import { endRequests, exampleUrl, INITIAL_VIEW, LAYOUT_PAGE_MODULE, pageAnswer, redirectAnswer, settle, startRouter, statusAnswer } from './fake-browser.ts';

/**
 * The navigation runtime (client/router/create-router.ts) driven without a browser: a fake
 * history and address, a fetch whose answers are built with the server's own serializer, and the
 * route table. Each test holds one promise of docs/navigation.md; the Chromium tests hold the rest.
 */
const ROUTES = [{ source: '^\\/(?:p\\d+|a|b|old|new|loop\\d*|layouts\\/\\w+)\\/?$', flags: 'i', script: '/assets/page.js' }];
const start = (at?: string) => startRouter(ROUTES, at);
const url = exampleUrl;

afterEach(async () => {
  await endRequests();
  vi.unstubAllGlobals();
});

describe('the router made by createRouter', () => {
  test('two navigations racing: the later wins, the earlier is aborted and its answer never shows', async () => {
    const { browser, router, titles } = start();
    expect(router.navigate(url('/a'))).toBe(true);
    expect(router.navigate(url('/b'))).toBe(true);
    const [first, second] = browser.calls;
    expect(first?.signal?.aborted).toBe(true);
    second?.answer(pageAnswer(second, { title: 'B', data: 'b' }));
    await settle(() => expect(titles()).toEqual(['b']));
    first?.answer(pageAnswer(first, { title: 'A', data: 'a' }));
    await new Promise((done) => setTimeout(done, 50));
    expect(titles()).toEqual(['b']);
    expect(browser.entries()).toEqual(['https://example.test/', 'https://example.test/b']);
    // An aborted load is no failure: the browser is not sent to load it in full.
    expect(browser.assigned).toEqual([]);
  });

  test('back and forward show a kept view from memory, without a request, at the scroll it was left at', async () => {
    const { browser, router, shown, titles } = start();
    router.navigate(url('/a'));
    browser.calls[0]?.answer(pageAnswer(browser.calls[0], { title: 'A', data: 'a', keep: true }));
    await settle(() => expect(titles()).toEqual(['a']));
    router.shown();
    browser.scrollBy(0, 300);
    router.navigate(url('/b'));
    browser.calls[1]?.answer(pageAnswer(browser.calls[1], { title: 'B', data: 'b', keep: true }));
    await settle(() => expect(titles()).toEqual(['a', 'b']));
    router.shown();
    browser.scrolled.length = 0;
    browser.scrollBy(0, 50);
    browser.go(-1);
    expect(shown[2]).toBe(shown[0]);
    expect(document.title).toBe('A');
    router.shown();
    expect(browser.scrolled).toEqual([[0, 300]]);
    browser.go(1);
    expect(shown[3]).toBe(shown[1]);
    router.shown();
    expect(browser.scrolled).toEqual([
      [0, 300],
      [0, 50],
    ]);
    expect(browser.calls).toHaveLength(2);
  });

  test('a view that may not be kept (no `keep`) is asked for again on back, under the same entry', async () => {
    const { browser, router, titles } = start();
    router.navigate(url('/a'));
    browser.calls[0]?.answer(pageAnswer(browser.calls[0], { title: 'A', data: 'a' }));
    await settle(() => expect(titles()).toEqual(['a']));
    router.navigate(url('/b'));
    browser.calls[1]?.answer(pageAnswer(browser.calls[1], { title: 'B', data: 'b' }));
    await settle(() => expect(titles()).toEqual(['a', 'b']));
    browser.go(-1);
    expect(browser.calls).toHaveLength(3);
    expect(browser.calls[2]?.url.pathname).toBe('/a');
    browser.calls[2]?.answer(pageAnswer(browser.calls[2], { title: 'A again', data: 'a again' }));
    await settle(() => expect(titles()).toEqual(['a', 'b', 'a again']));
    expect(browser.entries()).toHaveLength(3);
  });

  test('the view memory keeps the last 20 views: an older one is asked for again', async () => {
    const { browser, router, titles } = start();
    for (let page = 1; page <= 22; page += 1) {
      router.navigate(url(`/p${page}`));
      const call = browser.calls[page - 1];
      if (call === undefined) throw new Error('no request');
      call.answer(pageAnswer(call, { title: `P${page}`, data: `p${page}`, keep: true }));
      await settle(() => expect(titles()).toHaveLength(page));
    }
    browser.go(-19);
    expect(titles().at(-1)).toBe('p3');
    expect(browser.calls).toHaveLength(22);
    browser.go(-1);
    expect(browser.calls).toHaveLength(23);
    expect(browser.calls[22]?.url.pathname).toBe('/p2');
    // Answered, so no progress timer of this load outlives the test (and the stand-in document).
    const last = browser.calls[22];
    last?.answer(pageAnswer(last, { title: 'P2', data: 'p2 again' }));
    await settle(() => expect(titles().at(-1)).toBe('p2 again'));
  });

  test('a redirect answer is followed in place, as a new page', async () => {
    const { browser, router, titles } = start();
    router.navigate(url('/old'));
    browser.calls[0]?.answer(redirectAnswer('/new'));
    await settle(() => expect(browser.calls).toHaveLength(2));
    const second = browser.calls[1];
    expect(second?.url.pathname).toBe('/new');
    second?.answer(pageAnswer(second, { title: 'New', data: 'new' }));
    await settle(() => expect(titles()).toEqual(['new']));
    expect(browser.entries()).toEqual(['https://example.test/', 'https://example.test/new']);
    expect(browser.assigned).toEqual([]);
  });

  test('a redirect loop is cut after 10 hops in place: the browser loads the 11th target itself', async () => {
    const { browser, router, titles } = start();
    router.navigate(url('/loop0'));
    for (let hop = 0; hop <= 10; hop += 1) {
      await settle(() => expect(browser.calls).toHaveLength(hop + 1));
      browser.calls[hop]?.answer(redirectAnswer(`/loop${hop + 1}`));
    }
    await settle(() => expect(browser.assigned).toEqual(['https://example.test/loop11']));
    expect(browser.calls).toHaveLength(11);
    expect(titles()).toEqual([]);
  });

  test('a status answer shows its view in place, with its words', async () => {
    const { browser, router, titles } = start();
    router.navigate(url('/a'));
    browser.calls[0]?.answer(statusAnswer(404, 'Nothing here.'));
    await settle(() => expect(titles()).toEqual([404]));
    expect(document.title).toBe('404: Nothing here.');
  });

  test("a fetcher's post, then the page revalidated: the page loads again in place, and the fetcher hears it in the update that shows it", async () => {
    const { browser, router, shown, titles } = start('https://example.test/layouts/guests');
    const controller = new AbortController();
    const told: [string, number][] = [];
    const posted = { formAction: '/layouts/guests', formData: new FormData() };
    const answer = router.fetch(url('/layouts/guests'), new URLSearchParams({ name: 'Ada' }), controller.signal, (state) => told.push([state, shown.length]), posted);
    const post = browser.calls[0];
    if (post === undefined) throw new Error('no request');
    expect(post.method).toBe('POST');
    expect(post.headers[NAVIGATION_FETCHER_HEADER]).toBe('1');
    expect(post.body).toBe('name=Ada');
    // The action's result alone, as data lines (server/render/fetcher-answer.ts): no meta line.
    const result = pageAnswer(post, { title: '', data: undefined });
    const [, script] = (await result.text()).split('\n');
    post.answer(new Response(`${script}\n`, { headers: { 'content-type': 'application/x-ndjson' } }));
    await settle(() => expect(browser.calls).toHaveLength(2));
    expect(told).toEqual([['loading', 0]]);
    const load = browser.calls[1];
    expect(load?.method).toBe('GET');
    expect(load?.url.pathname).toBe('/layouts/guests');
    // Everything loads again after a post: nothing is named to keep.
    expect(load?.headers[NAVIGATION_KEEP_HEADER]).toBeUndefined();
    load?.answer(pageAnswer(load, { title: 'Guests', data: 'guests, Ada among them' }));
    await answer;
    expect(titles()).toEqual(['guests, Ada among them']);
    // Idle inside the update that shows the page, before the view is handed over.
    expect(told).toEqual([
      ['loading', 0],
      ['idle', 0],
    ]);
    // The same view, key kept: the page is not mounted afresh, and no history entry is added.
    expect(shown[0]?.key).toBe(INITIAL_VIEW.key);
    expect(browser.entries()).toEqual(['https://example.test/layouts/guests']);
  });

  test('a page inside a layout kept from the view on the screen names it, and is shown with its data', async () => {
    const initial: View = {
      key: 0,
      modules: [{ default: () => null }, { default: () => null }],
      page: { data: 'one', params: {}, layouts: [{ id: 'root', data: 'layout data' }] },
    };
    const { browser, router, shown } = startRouter(ROUTES, 'https://example.test/layouts/one', initial);
    router.navigate(url('/layouts/two'));
    const call = browser.calls[0];
    expect(call?.headers[NAVIGATION_KEEP_HEADER]).toBe('root');
    call?.answer(pageAnswer(call, { title: 'Two', data: 'two', layouts: [{ id: 'root', kept: true }], script: LAYOUT_PAGE_MODULE }));
    await settle(() => expect(shown).toHaveLength(1));
    const view = shown[0];
    expect(view !== undefined && 'page' in view ? view.page.layouts : undefined).toEqual([{ id: 'root', data: 'layout data' }]);
  });
});
