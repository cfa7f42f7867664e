import { describe, expect, test } from 'vitest';
import { NAVIGATION_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { DESKTOP_CHROME, fixtureSession, watchedPage, type WatchedPage } from './harness.ts';

const session = fixtureSession();

/** `path` hydrated in a fresh desktop context; `asked` lists the path of every data request (an in-place load's) from then on, with its answer's status. */
async function open(path: string): Promise<WatchedPage & { readonly asked: string[]; close: () => Promise<void> }> {
  const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME, viewport: { width: 800, height: 600 } });
  const watched = await watchedPage(context);
  const asked: string[] = [];
  watched.page.on('response', (response) => {
    if (response.request().headers()[NAVIGATION_HEADER] !== undefined) asked.push(`${response.request().method()} ${new URL(response.url()).pathname} ${response.status()}`);
  });
  await watched.page.goto(`${session.server.origin}${path}`);
  await watched.page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
  return { ...watched, asked, close: () => context.close() };
}

describe("the router's memory of views, in Chromium", () => {
  test('back after signing out in place asks the server again: the private page is refused with 401, never shown from memory', async () => {
    const { page, asked, problems, documents, close } = await open('/members/sign-in');
    await page.click('#sign-in');
    await page.waitForSelector('#figures');
    expect(new URL(page.url()).pathname).toBe('/members/private');
    expect(await page.textContent('#signed-in')).toBe('Signed in as Ada');
    await page.click('#sign-out');
    await page.waitForSelector('h1:text-is("Signed out")');
    asked.length = 0;

    await page.goBack();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/members/private');
    await page.waitForSelector('#root h1:text-is("401")');
    // Before, the view the signed-in visitor left showed again from memory, their name and figures included.
    expect(await page.textContent('#root')).not.toContain('Signed in as');
    expect(await page.isVisible('#figures')).toBe(false);
    expect(await page.title()).toBe("401: You're not authorized to access this page.");
    // Asked again, and refused.
    expect(asked).toEqual(['GET /members/private 401']);
    // All of it in place: one document.
    expect(documents).toEqual([`${session.server.origin}/members/sign-in`]);
    // Chrome notes the refusal of the data request itself; nothing else.
    expect(problems.filter((text) => !/status of 401/.test(text))).toEqual([]);
    await close();
  });

  test('back and forward show a public page from memory, without a request, and ask again for a page answered no-store', async () => {
    const { page, asked, problems, close } = await open('/members/sign-in');
    await page.click('#to-notice');
    await page.waitForSelector('h1:text-is("Notice")');
    const servedAt = await page.textContent('#notice-served-at');
    await page.click('#to-sign-in');
    await page.waitForSelector('h1:text-is("Sign in")');
    expect(asked).toEqual(['GET /members/notice 200', 'GET /members/sign-in 200']);
    asked.length = 0;

    await page.goBack();
    await page.waitForSelector('h1:text-is("Notice")');
    // Time for a request the runtime would have made.
    await page.waitForTimeout(300);
    // `public, max-age=60`: the same view, from memory.
    expect(asked).toEqual([]);
    expect(await page.textContent('#notice-served-at')).toBe(servedAt);

    // The document's own page, and the sign-in page reached in place: both no-store, both asked for again.
    await page.goBack();
    await expect.poll(() => asked).toEqual(['GET /members/sign-in 200']);
    await page.waitForSelector('h1:text-is("Sign in")');
    await page.goForward();
    await page.waitForSelector('h1:text-is("Notice")');
    await page.goForward();
    await expect.poll(() => asked).toEqual(['GET /members/sign-in 200', 'GET /members/sign-in 200']);
    await page.waitForSelector('h1:text-is("Sign in")');
    expect(problems).toEqual([]);
    await close();
  });

  test("a public page whose layout's data the browser kept from a no-store answer is not shown from memory", async () => {
    const { page, asked, problems, close } = await open('/members/sign-in');
    await page.click('#to-notice');
    await page.waitForSelector('h1:text-is("Notice")');
    await page.click('#to-board');
    await page.waitForSelector('h1:text-is("Board")');
    // The board's layout stays: only the notice's data comes, public, beside the layout's no-store data.
    await page.click('#to-notice');
    await page.waitForSelector('h1:text-is("Notice")');
    await page.click('#to-sign-in');
    await page.waitForSelector('h1:text-is("Sign in")');
    asked.length = 0;
    await page.goBack();
    // Before, the view came from memory, the layout's data with it.
    await expect.poll(() => asked).toEqual(['GET /members/notice 200']);
    await page.waitForSelector('h1:text-is("Notice")');
    expect(problems).toEqual([]);
    await close();
  });

  test("a page's data fetched ahead before a sign-out is never shown after it", async () => {
    const { page, asked, problems, close } = await open('/members/sign-in');
    await page.click('#sign-in');
    await page.waitForSelector('#figures');
    // Hovered while signed in: the account's data is fetched ahead, for ten seconds.
    await page.hover('#to-account');
    await expect.poll(() => asked).toContain('GET /members/account 200');
    await page.click('#sign-out');
    await page.waitForSelector('h1:text-is("Signed out")');
    asked.length = 0;
    await page.click('#to-account');
    // Before, the account fetched for Ada showed to whoever came next.
    await page.waitForSelector('#root h1:text-is("401")');
    expect(asked).toEqual(['GET /members/account 401']);
    expect(await page.isVisible('#account-of')).toBe(false);
    expect(problems.filter((text) => !/status of 401/.test(text))).toEqual([]);
    await close();
  });

  test('a page loaded again by back or forward comes back where it was left, each time', async () => {
    const { page, asked, problems, close } = await open('/nav/a');
    await page.click('#to-b-bottom');
    await page.waitForSelector('h1:text-is("Page B")');
    for (const scroll of [300, 700]) {
      await page.evaluate((y) => scrollTo(0, y), scroll);
      await expect.poll(() => page.evaluate(() => scrollY)).toBe(scroll);
      await page.goBack();
      await page.waitForSelector('h1:text-is("Page A")');
      await page.goForward();
      await page.waitForSelector('h1:text-is("Page B")');
      // Before, the second return found the scroll B had been left at the first time.
      await expect.poll(() => page.evaluate(() => scrollY)).toBe(scroll);
    }
    // Every move through history asked the server: the pages are no-store.
    expect(asked.filter((line) => line.startsWith('GET '))).toEqual(['GET /nav/b 200', 'GET /nav/a 200', 'GET /nav/b 200', 'GET /nav/a 200', 'GET /nav/b 200']);
    expect(problems).toEqual([]);
    await close();
  });
});
