import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { DESKTOP_CHROME, fixtureSession, watchedPage, type WatchedPage } from './harness.ts';
import { loggedLines } from '../support/server-process.ts';

const session = fixtureSession();

/** Opens page A in `context`, hydrated, with a marker on `window` that only survives in-place navigation. */
async function openIn(context: BrowserContext): Promise<WatchedPage> {
  const watched = await watchedPage(context);
  await watched.page.goto(`${session.server.origin}/nav/a`);
  await watched.page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
  await watched.page.evaluate(() => Reflect.set(window, '__sameDocument', true));
  return watched;
}

/** Page A in a fresh desktop context (openIn). */
async function openA(): Promise<WatchedPage & { close: () => Promise<void> }> {
  const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME, viewport: { width: 800, height: 600 } });
  return { ...(await openIn(context)), close: () => context.close() };
}

function sameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => Reflect.get(window, '__sameDocument') === true);
}

describe('in-place navigation in Chromium', () => {
  test('A → B → back: no reload, title and head updated, focus on the heading, the title announced, scroll restored', async () => {
    const { page, problems, documents, close } = await openA();
    // The live region is in the document, empty, before the first navigation fills it: screen
    // readers often miss a region that is filled as it is inserted.
    const announcer = () =>
      page.evaluate(() => {
        const region = document.getElementById('nav-announcer');
        return region === null ? null : [region.getAttribute('aria-live'), region.textContent];
      });
    await expect.poll(announcer).toEqual(['assertive', '']);
    // Scrolled so that the link is in view: the click itself does not scroll.
    await page.evaluate(() => document.getElementById('to-b-bottom')?.scrollIntoView({ block: 'end' }));
    const scrolled = await page.evaluate(() => scrollY);
    expect(scrolled).toBeGreaterThan(500);
    await page.click('#to-b-bottom');
    await page.waitForSelector('h1:text-is("Page B")');
    expect(await sameDocument(page)).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/nav/b');
    expect(await page.title()).toBe('Page B · React Stream Shell');
    expect(await page.getAttribute('meta[name=description]', 'content')).toMatch(/^The second page, served at /);
    expect(await page.evaluate(() => `${document.activeElement?.tagName}:${document.activeElement?.textContent}`)).toBe('H1:Page B');
    expect(await page.evaluate(() => scrollY)).toBe(0);
    await expect.poll(() => page.textContent('#nav-announcer')).toBe('Page B · React Stream Shell');

    await page.goBack();
    await page.waitForSelector('h1:text-is("Page A")');
    expect(await sameDocument(page)).toBe(true);
    expect(await page.title()).toBe('Page A · React Stream Shell');
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(scrolled);

    await page.goForward();
    await page.waitForSelector('h1:text-is("Page B")');
    expect(await sameDocument(page)).toBe(true);
    // One document for the whole trip: every move after the first was in place.
    expect(documents).toEqual([`${session.server.origin}/nav/a`]);
    expect(problems).toEqual([]);
    await close();
  });

  test('without its route table (a deploy has replaced the server since, say) the page still hydrates, and links load in full', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME, viewport: { width: 800, height: 600 } });
    const refused: string[] = [];
    await context.route(/\/assets\/routes-[0-9a-f]+\.js$/, (route) => {
      refused.push(route.request().url());
      return route.fulfill({ status: 404, body: '' });
    });
    const { page, problems, documents } = await openIn(context);
    await page.click('#to-b-bottom');
    await page.waitForSelector('h1:text-is("Page B")');
    expect(await sameDocument(page)).toBe(false);
    expect(documents).toEqual([`${session.server.origin}/nav/a`, `${session.server.origin}/nav/b`]);
    // The table was asked for as the pointer came over the link (the runtime loads it on a first
    // intent, and B has had none); what the browser says of it is all it says.
    expect(refused).toEqual([expect.stringMatching(/\/assets\/routes-[0-9a-f]+\.js$/)]);
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) expect(problem).toMatch(/routes-[0-9a-f]+\.js/);
    await context.close();
  });

  test('a link with a #hash scrolls to its target on the new page', async () => {
    const { page, close } = await openA();
    await page.click('#to-b-section');
    await page.waitForSelector('h1:text-is("Page B")');
    await expect.poll(() => page.evaluate(() => Math.abs(Math.round(document.getElementById('section')?.getBoundingClientRect().top ?? -1)))).toBe(0);
    expect(await sameDocument(page)).toBe(true);
    await close();
  });

  test("a link to a missing page shows the 404 view, with the status page's words and title", async () => {
    const { page, problems, close } = await openA();
    await page.click('#to-missing');
    await page.waitForSelector('h1:text("404")');
    expect(await page.textContent('h2')).toBe('This page could not be found.');
    expect(await page.title()).toBe('404: This page could not be found.');
    expect(await sameDocument(page)).toBe(true);
    // Chrome notes the 404 of the data request itself; nothing else.
    expect(problems.filter((text) => !/status of 404/.test(text))).toEqual([]);
    await close();
  });

  test('a load that fails shows the server-side error view with the digest the log has', async () => {
    const { page, close } = await openA();
    await page.click('#to-broken');
    await page.waitForSelector('text=Application error');
    // Headed by its status, as the full 500 page is.
    expect(await page.textContent('#root h1')).toBe('500');
    expect(await page.textContent('h2')).toContain('a server-side exception has occurred');
    const digest = /^Digest: ([A-Za-z0-9_-]+)$/.exec((await page.textContent('.digest')) ?? '')?.[1];
    expect(digest).toBeDefined();
    expect((await loggedLines(session.server, (line) => line.level === 50 && line.path === '/nav/broken')).map((line) => line.digest)).toContain(digest);
    await close();
  });

  test('links to pages without JavaScript and links with target or modifier keys are left to the browser', async () => {
    const { page, close } = await openA();
    const popup = page.context().waitForEvent('page');
    await page.click('#to-b-new-tab');
    const opened = await popup;
    await opened.waitForLoadState();
    expect(new URL(opened.url()).pathname).toBe('/nav/b');
    expect(await sameDocument(page)).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/nav/a');

    await page.click('#to-server-only');
    await page.waitForSelector('h1:text-is("SLOW-SHELL")');
    expect(await sameDocument(page)).toBe(false);
    await close();
  });

  test("hover fetches the next page's code once; the click then needs no new script", async () => {
    const { page, scripts, close } = await openA();
    const before = scripts.length;
    await page.hover('#to-b');
    await expect.poll(() => scripts.filter((url) => url.includes('/assets/nav-b-')).length).toBe(1);
    await page.mouse.move(0, 0);
    await page.hover('#to-b');
    await page.click('#to-b');
    await page.waitForSelector('h1:text-is("Page B")');
    expect(scripts.slice(before).filter((url) => url.includes('/assets/nav-b-'))).toHaveLength(1);
    await close();
  });

  test('a slow navigation shows the progress bar, and a newer navigation cancels it', async () => {
    const { page, close } = await openA();
    await page.click('#to-b-slow');
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('nav-pending')), { timeout: 2_000 }).toBe(true);
    // A newer navigation wins: the slow one never shows.
    await page.click('#to-missing');
    await page.waitForSelector('h1:text("404")');
    await page.waitForTimeout(900);
    expect(await page.textContent('h1')).toBe('404');
    expect(await page.evaluate(() => document.documentElement.classList.contains('nav-pending'))).toBe(false);
    await close();
  });

  test('everything is reachable by keyboard: Tab to a link, Enter navigates in place', async () => {
    const { page, close } = await openA();
    await page.focus('#to-b');
    await page.keyboard.press('Enter');
    await page.waitForSelector('h1:text-is("Page B")');
    expect(await sameDocument(page)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('to-a');
    await page.keyboard.press('Enter');
    await page.waitForSelector('h1:text-is("Page A")');
    expect(await sameDocument(page)).toBe(true);
    await close();
  });
  test.each(['Control', 'Shift'] as const)("a click with %s held is the browser's: the page opens elsewhere, and this one stays and fetches nothing", async (modifier) => {
    const { page, close } = await openA();
    const dataRequests: string[] = [];
    page.on('request', (request) => {
      if (request.headers()['x-navigation'] !== undefined) dataRequests.push(request.url());
    });
    const opened = page.context().waitForEvent('page', { timeout: 5_000 });
    await page.click('#to-b', { modifiers: [modifier] });
    const other = await opened;
    await other.waitForURL(/\/nav\/b$/, { timeout: 10_000 });
    expect(new URL(page.url()).pathname).toBe('/nav/a');
    expect(await page.textContent('h1')).toBe('Page A');
    expect(await sameDocument(page)).toBe(true);
    expect(dataRequests).toEqual([]);
    await close();
  });

  test('a network failure during a navigation falls back to loading the page in full', async () => {
    const { page, documents, close } = await openA();
    // The in-place request fails as a dropped connection would; the document request goes through.
    await page.route('**/nav/b', (route) => (route.request().headers()['x-navigation'] === 'data' ? route.abort('connectionreset') : route.continue()));
    await page.click('#to-b');
    await page.waitForSelector('h1:text-is("Page B")');
    expect(await sameDocument(page)).toBe(false);
    expect(documents).toEqual([`${session.server.origin}/nav/a`, `${session.server.origin}/nav/b`]);
    await close();
  });

  test('moves through a View Transition where the browser has one, and not when reduced motion is preferred', async () => {
    async function transitionsFor(reducedMotion: 'reduce' | 'no-preference'): Promise<number> {
      const { page, close } = await openA();
      await page.emulateMedia({ reducedMotion });
      await page.evaluate(() => {
        const original = document.startViewTransition.bind(document);
        Reflect.set(window, '__transitions', 0);
        document.startViewTransition = (update) => {
          Reflect.set(window, '__transitions', Number(Reflect.get(window, '__transitions')) + 1);
          return original(update);
        };
      });
      await page.click('#to-b');
      await page.waitForSelector('h1:text-is("Page B")');
      const count = Number(await page.evaluate(() => Reflect.get(window, '__transitions')));
      await close();
      return count;
    }
    expect(await transitionsFor('no-preference')).toBe(1);
    expect(await transitionsFor('reduce')).toBe(0);
  });
});
