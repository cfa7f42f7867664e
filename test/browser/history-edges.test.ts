import type { Page, Request } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { NAVIGATION_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { DESKTOP_CHROME, fixtureSession, watchedPage, type WatchedPage } from './harness.ts';

const session = fixtureSession();

/** `path` hydrated in a fresh desktop context; `dataRequests` lists every in-place data request the page makes. */
async function open(path: string): Promise<WatchedPage & { readonly dataRequests: Request[]; close: () => Promise<void> }> {
  const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME, viewport: { width: 800, height: 600 } });
  const watched = await watchedPage(context);
  const dataRequests: Request[] = [];
  watched.page.on('request', (request) => {
    if (request.headers()[NAVIGATION_HEADER] !== undefined) dataRequests.push(request);
  });
  await watched.page.goto(`${session.server.origin}${path}`);
  await hydrated(watched.page);
  return { ...watched, dataRequests, close: () => context.close() };
}

function hydrated(page: Page): Promise<unknown> {
  return page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
}

/** The head's tags a page sets, as `name or property=content`, and the canonical link. */
function headTags(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.head.querySelectorAll('meta[name=description],meta[name=robots],meta[property^="og:"],link[rel=canonical]')].map(
      (element) =>
        `${element.getAttribute('name') ?? element.getAttribute('property') ?? element.getAttribute('rel')}=${element.getAttribute('content') ?? element.getAttribute('href')}`,
    ),
  );
}

describe('history in Chromium, at its edges', () => {
  test('back after a reload shows the page of the address: an entry of the earlier document is never taken for a view of this one', async () => {
    const { page, problems, close } = await open('/nav/a');
    await page.click('#to-b-bottom');
    await page.waitForSelector('h1:text-is("Page B")');
    await page.reload();
    await hydrated(page);
    await page.goBack();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/nav/a');
    // Before, the reloaded document's first view had the key A's entry kept: B showed under /nav/a.
    await page.waitForSelector('h1:text-is("Page A")');
    expect(await page.title()).toBe('Page A · React Stream Shell');
    expect(problems).toEqual([]);
    await close();
  });

  test('another #fragment of the page, by link or by history, leaves the page as it is: no data request, what was typed stays', async () => {
    const { page, dataRequests, problems, close } = await open('/fixtures/form');
    await page.fill('#name', 'typed but not sent');
    await page.evaluate(() => {
      const link = Object.assign(document.createElement('a'), { href: '#email', id: 'skip', textContent: 'Skip to the email' });
      document.body.prepend(link);
    });
    await page.click('#skip');
    await expect.poll(() => new URL(page.url()).hash).toBe('#email');
    await page.goBack();
    await expect.poll(() => new URL(page.url()).hash).toBe('');
    await page.goForward();
    await expect.poll(() => new URL(page.url()).hash).toBe('#email');
    // Time for a request the runtime would have made.
    await page.waitForTimeout(300);
    // Before, each of these moves loaded the page's data again and mounted it afresh, empty.
    expect(dataRequests.map((request) => request.url())).toEqual([]);
    expect(await page.inputValue('#name')).toBe('typed but not sent');
    expect(problems).toEqual([]);
    await close();
  });

  test("back to the document's first page puts its own description and Open Graph tags back", async () => {
    const { page, close } = await open('/nav/a');
    const tagsOfA = await headTags(page);
    expect(tagsOfA.some((tag) => tag.startsWith('description='))).toBe(true);
    await page.click('#to-b-bottom');
    await page.waitForSelector('h1:text-is("Page B")');
    expect(await headTags(page)).not.toEqual(tagsOfA);
    await page.goBack();
    await page.waitForSelector('h1:text-is("Page A")');
    // Before, the title came back and B's tags stayed.
    expect((await headTags(page)).sort()).toEqual([...tagsOfA].sort());
    await close();
  });

  test("a status view shown in place has the status page's head: noindex, and none of the earlier page's tags", async () => {
    const { page, close } = await open('/nav/a');
    await page.click('#to-missing');
    await page.waitForSelector('h1:text("404")');
    // As a full load of the same address has it.
    expect(await headTags(page)).toEqual(['robots=noindex']);
    await close();
  });

  test("a submit button's formmethod=get, and a form's target, are the browser's: no in-place post", async () => {
    const { page, dataRequests, documents, close } = await open('/fixtures/form');
    await page.evaluate(() => {
      const search = Object.assign(document.createElement('button'), { type: 'submit', name: 'q', value: 'found', id: 'search', textContent: 'Search' });
      search.setAttribute('formmethod', 'get');
      document.getElementById('signup')?.append(search);
    });
    const navigated = page.waitForRequest((request) => request.resourceType() === 'document' && request.url().includes('q=found'));
    await page.click('#search');
    // Before, it was posted in place, and the action ran.
    expect((await navigated).method()).toBe('GET');
    await hydrated(page);
    expect(dataRequests).toEqual([]);

    await page.evaluate(() => document.getElementById('signup')?.setAttribute('target', '_blank'));
    const opened = page.context().waitForEvent('page');
    await page.fill('#name', 'Ada');
    await page.click('#signup button[type=submit]:not(#search)');
    // A new window, as without JavaScript.
    await (await opened).waitForLoadState('domcontentloaded');
    expect(dataRequests).toEqual([]);
    expect(documents.length).toBe(2);
    await close();
  });

  test('a reload, and a return from another document, put the scroll back where it was', async () => {
    const { page, close } = await open('/nav/a');
    await page.evaluate(() => scrollTo(0, 700));
    await page.waitForTimeout(100);
    await page.reload();
    await hydrated(page);
    // Before, the runtime's manual restoration left a reload at the top.
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(700);
    // To a page without code (a full load), then back: a new document again.
    await page.goto(`${session.server.origin}/fixtures/slow?ms=0`);
    await page.goBack();
    await hydrated(page);
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(700);
    await close();
  });
});
