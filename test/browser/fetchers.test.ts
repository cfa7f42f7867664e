import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { DESKTOP_CHROME, fixtureSession, watchedPage, type WatchedPage } from './harness.ts';

const session = fixtureSession();

/** A request the runtime made for data (a navigation's, a revalidation's or a fetcher's). */
interface DataRequest {
  readonly method: string;
  readonly path: string;
  readonly fetcher: boolean;
  readonly keep: string | undefined;
}

/** Every data request the page makes from now on. */
function dataRequests(page: Page): DataRequest[] {
  const seen: DataRequest[] = [];
  page.on('request', (request) => {
    const headers = request.headers();
    if (headers['x-navigation'] !== 'data') return;
    const url = new URL(request.url());
    seen.push({ method: request.method(), path: `${url.pathname}${url.search}`, fetcher: headers['x-navigation-fetcher'] !== undefined, keep: headers['x-navigation-keep'] });
  });
  return seen;
}

/** Records each text an element shows from now on (a fetcher's state), as React writes it. */
async function recordTexts(page: Page, selector: string): Promise<() => Promise<string[]>> {
  const key = `__texts${selector.replace(/\W/g, '')}`;
  await page.evaluate(
    ([target, name]) => {
      const element = document.querySelector(target);
      const seen: string[] = [element?.textContent ?? ''];
      Reflect.set(window, name, seen);
      if (element === null) return;
      new MutationObserver(() => seen.push(element.textContent ?? '')).observe(element, { childList: true, characterData: true, subtree: true });
    },
    [selector, key] as const,
  );
  return () => page.evaluate((name) => [...(Reflect.get(window, name) as string[])], key);
}

/** The guests page, hydrated, in a short window so that it scrolls, with a marker on `window` only an in-place page keeps. */
async function openGuests(): Promise<WatchedPage> {
  const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME, viewport: { width: 800, height: 400 } });
  const watched = await watchedPage(context);
  await watched.page.goto(`${session.server.origin}/layouts/guests`);
  await watched.page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
  await watched.page.evaluate(() => Reflect.set(window, '__sameDocument', true));
  return watched;
}

function listed(page: Page): Promise<string[]> {
  return page.$$eval('#guests li', (items) => items.map((item) => item.textContent ?? ''));
}

describe('fetchers in Chromium', () => {
  test('a fetcher form adds to the list in place: no navigation, the scroll, a layout field and history kept; submitting → loading → idle; one post and one revalidation', async () => {
    const { page, problems, documents } = await openGuests();
    await page.fill('#shell-input', 'typed in the layout');
    await page.fill('#name-a', 'Ada');
    await page.evaluate(() => document.getElementById('form-a')?.scrollIntoView({ block: 'end' }));
    // Chrome's scroll anchoring would move the window with the list that grows above the form:
    // off, what is left to see is whether the runtime itself scrolls.
    await page.evaluate(() => document.documentElement.style.setProperty('overflow-anchor', 'none'));
    const scrolled = await page.evaluate(() => scrollY);
    expect(scrolled).toBeGreaterThan(100);
    const historyLength = await page.evaluate(() => history.length);
    const loadedAt = await page.textContent('#loaded-at');
    const states = await recordTexts(page, '#state-a');
    const requests = dataRequests(page);

    await page.click('#add-a');
    await page.waitForSelector('#guests li:text-is("Ada")');
    await expect.poll(states).toEqual(['idle', 'submitting', 'loading', 'idle']);

    expect(await page.textContent('#added-a')).toBe('Ada at a date');
    // The page was loaded again (its load ran: a new time), in place.
    expect(await page.textContent('#loaded-at')).not.toBe(loadedAt);
    expect(await page.evaluate(() => Reflect.get(window, '__sameDocument'))).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/layouts/guests');
    expect(await page.evaluate(() => history.length)).toBe(historyLength);
    expect(await page.evaluate(() => scrollY)).toBe(scrolled);
    expect(await page.inputValue('#shell-input')).toBe('typed in the layout');
    // The focus stays on the button that sent the form.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('add-a');
    expect(requests).toEqual([
      { method: 'POST', path: '/layouts/guests', fetcher: true, keep: undefined },
      { method: 'GET', path: '/layouts/guests', fetcher: false, keep: undefined },
    ]);
    expect(documents).toEqual([`${session.server.origin}/layouts/guests`]);
    expect(problems).toEqual([]);
  });

  test('two fetchers at once each go their own way and both complete', async () => {
    const { page, problems } = await openGuests();
    const statesA = await recordTexts(page, '#state-a');
    const statesB = await recordTexts(page, '#state-b');
    await page.fill('#name-a', 'Grace');
    await page.fill('#name-b', 'Linus');
    await page.click('#add-a');
    await page.click('#add-b');
    await expect.poll(() => page.textContent('#state-b')).toBe('submitting');
    expect(await page.textContent('#state-a')).toBe('submitting');
    await page.waitForSelector('#guests li:text-is("Grace")');
    await page.waitForSelector('#guests li:text-is("Linus")');
    await expect.poll(() => page.textContent('#state-a')).toBe('idle');
    await expect.poll(() => page.textContent('#state-b')).toBe('idle');
    expect(await page.textContent('#added-a')).toBe('Grace at a date');
    expect(await page.textContent('#added-b')).toBe('Linus at a date');
    expect((await statesA()).slice(0, 2)).toEqual(['idle', 'submitting']);
    expect((await statesB()).slice(0, 2)).toEqual(['idle', 'submitting']);
    expect(await listed(page)).toEqual(expect.arrayContaining(['Grace', 'Linus']));
    expect(problems).toEqual([]);
  });

  test("fetcher.load gives another page's data without navigating", async () => {
    const { page, problems } = await openGuests();
    const historyLength = await page.evaluate(() => history.length);
    const states = await recordTexts(page, '#peek-state');
    const requests = dataRequests(page);
    await page.click('#peek');
    await page.waitForSelector('#peeked:text-is("two")');
    await expect.poll(states).toEqual(['idle', 'loading', 'idle']);
    expect(await page.textContent('h1')).toBe('Guests');
    expect(new URL(page.url()).pathname).toBe('/layouts/guests');
    expect(await page.evaluate(() => history.length)).toBe(historyLength);
    expect(requests).toEqual([{ method: 'GET', path: '/layouts/two', fetcher: false, keep: undefined }]);
    expect(problems).toEqual([]);
  });

  test("invalid() gives the fetcher the field's error, and the page is not loaded again", async () => {
    const { page, problems } = await openGuests();
    const requests = dataRequests(page);
    await page.click('#add-a');
    await page.waitForSelector('#error-a:text-is("Enter a name.")');
    await expect.poll(() => page.textContent('#state-a')).toBe('idle');
    expect(requests).toEqual([{ method: 'POST', path: '/layouts/guests', fetcher: true, keep: undefined }]);
    // Chrome notes the 422 of the post; nothing else.
    expect(problems.filter((text) => !/status of 422/.test(text))).toEqual([]);
  });

  test('a post the cross-site check refuses leaves the page as it was and the fetcher idle, without data, with the 403', async () => {
    const { page, problems } = await openGuests();
    // The browser's own post, sent on as if another site had made it (Chromium keeps its own
    // Sec-Fetch-Site on a request it sends), and the server's answer handed back to the page.
    await page.route('**/layouts/guests', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      return route.fulfill({ response: await route.fetch({ headers: { ...route.request().headers(), 'sec-fetch-site': 'cross-site' } }) });
    });
    const before = await listed(page);
    await page.fill('#name-a', 'Mallory');
    await page.click('#add-a');
    await page.waitForSelector('#refused-a:text-is("403")');
    expect(await page.textContent('#state-a')).toBe('idle');
    expect(await page.$('#added-a')).toBeNull();
    expect(await listed(page)).toEqual(before);
    expect(await page.inputValue('#name-a')).toBe('Mallory');
    expect(new URL(page.url()).pathname).toBe('/layouts/guests');
    await expect.poll(() => session.server.logs.some((line) => line.msg === 'csrf refused' && line.reason === 'cross-site')).toBe(true);
    expect(problems.filter((text) => !/status of 403/.test(text))).toEqual([]);
  });

  test('a post whose connection fails leaves the page as it was and the fetcher idle, without data, with the error', async () => {
    const { page, problems } = await openGuests();
    await page.route('**/layouts/guests', (route) => (route.request().method() === 'POST' ? route.abort('connectionreset') : route.continue()));
    await page.fill('#name-b', 'Lost');
    await page.click('#add-b');
    await page.waitForSelector('#refused-b:text-is("failed")');
    expect(await page.textContent('#state-b')).toBe('idle');
    expect(await page.$('#added-b')).toBeNull();
    expect(await page.inputValue('#name-b')).toBe('Lost');
    expect(await page.textContent('h1')).toBe('Guests');
    expect(problems.filter((text) => !/ERR_CONNECTION_RESET/.test(text))).toEqual([]);
  });

  test('a post that held, whose revalidation fails, leaves the page as it was, in place, and the fetcher idle with its data', async () => {
    const { page, problems, documents } = await openGuests();
    await page.route('**/layouts/guests', (route) => {
      const request = route.request();
      return request.method() === 'GET' && request.headers()['x-navigation'] === 'data' ? route.abort('connectionreset') : route.continue();
    });
    await page.fill('#shell-input', 'typed in the layout');
    await page.fill('#name-a', 'Unseen');
    const loadedAt = await page.textContent('#loaded-at');
    const states = await recordTexts(page, '#state-a');

    await page.click('#add-a');
    await expect.poll(states).toEqual(['idle', 'submitting', 'loading', 'idle']);

    // The action held and the fetcher has its data; the page is the one loaded before the post.
    expect(await page.textContent('#added-a')).toBe('Unseen at a date');
    expect(await listed(page)).not.toContain('Unseen');
    expect(await page.textContent('#loaded-at')).toBe(loadedAt);
    expect(await page.inputValue('#shell-input')).toBe('typed in the layout');
    expect(await page.evaluate(() => Reflect.get(window, '__sameDocument'))).toBe(true);
    expect(documents).toEqual([`${session.server.origin}/layouts/guests`]);
    expect(problems.filter((text) => !/ERR_CONNECTION_RESET/.test(text))).toEqual([]);
  });

  test('an action that redirects sends the page there, as a navigation', async () => {
    const { page, problems } = await openGuests();
    const historyLength = await page.evaluate(() => history.length);
    const requests = dataRequests(page);
    await page.click('#visit-button');
    await page.waitForSelector('h1:text-is("Page one")');
    expect(new URL(page.url()).pathname).toBe('/layouts/one');
    expect(await page.evaluate(() => history.length)).toBe(historyLength + 1);
    // The fetcher's post, then the page it named, every level loaded afresh after the action.
    expect(requests).toEqual([
      { method: 'POST', path: '/layouts/guests', fetcher: true, keep: undefined },
      { method: 'GET', path: '/layouts/one', fetcher: false, keep: undefined },
    ]);
    expect(await page.evaluate(() => Reflect.get(window, '__sameDocument'))).toBe(true);
    expect(problems).toEqual([]);
  });

  test('without JavaScript the same forms post: 422 with the error, a guest added, a redirect answered 303', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME, javaScriptEnabled: false });
    const { page } = await watchedPage(context);
    const statuses: number[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST') statuses.push(response.status());
    });
    await page.goto(`${session.server.origin}/layouts/guests`);
    await page.click('#add-a');
    await page.waitForSelector('#error-a:text-is("Enter a name.")');
    await page.fill('#name-a', 'Barbara');
    await page.click('#add-a');
    await page.waitForSelector('#guests li:text-is("Barbara")');
    await page.click('#visit-button');
    await page.waitForSelector('h1:text-is("Page one")');
    expect(statuses).toEqual([422, 200, 303]);
    await context.close();
  });
});
