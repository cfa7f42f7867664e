import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { DESKTOP_CHROME, fixtureSession, watchedPage } from './harness.ts';

const session = fixtureSession();

/** How many times the fixture action ran for `key`, read from the server with a GET. */
async function runsOf(key: string): Promise<number> {
  const html = await (await fetch(`${session.server.origin}/fixtures/post-once/${key}/save`)).text();
  const runs = /<span id="runs">(\d+)<\/span>/.exec(html)?.[1];
  if (runs === undefined) throw new Error(`no count in ${html.slice(0, 200)}`);
  return Number(runs);
}

/** The form page, hydrated, with a marker on `window` that only survives while the document stays. */
async function openForm(key: string): Promise<{ page: Page; scripts: string[]; documents: string[]; problems: string[]; close: () => Promise<void> }> {
  const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
  const watched = await watchedPage(context);
  await watched.page.goto(`${session.server.origin}/fixtures/post-once/${key}`);
  await watched.page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
  await watched.page.evaluate(() => Reflect.set(window, '__sameDocument', true));
  return { ...watched, close: () => context.close() };
}

/** Sends the form and waits for what the page shows next: the error view, or (re-posted) the saved page. */
async function submitAndSettle(page: Page): Promise<void> {
  await page.click('#post-once-submit');
  await page.waitForSelector('.status h2, #saved', { timeout: 10_000 });
}

/** What every case checks: one run, the error view in place, the same document at the same address. */
async function expectRanOnceAndShowedTheError(key: string, page: Page, documents: string[]): Promise<void> {
  // A re-post would show up here as 2, whenever it landed.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await runsOf(key)).toBe(1);
  expect(await page.textContent('.status h2')).toContain('a client-side exception has occurred');
  expect(page.url()).toBe(`${session.server.origin}/fixtures/post-once/${key}`);
  expect(await page.evaluate(() => Reflect.get(window, '__sameDocument'))).toBe(true);
  expect(documents).toEqual([`${session.server.origin}/fixtures/post-once/${key}`]);
}

describe('an in-place post that fails after the server may have run the action is never sent again', () => {
  test("the answer's page code fails to load (a deploy removed it): the action ran once, the error view shows", async () => {
    const key = `chunk-${Date.now()}`;
    const { page, scripts, documents, problems, close } = await openForm(key);
    // The navigation runtime is in (a pointer came over the form) before the deploy takes the
    // build away; without it, the browser posts (lazy-navigation.test.ts).
    await page.hover('#post-once-submit');
    await expect.poll(() => scripts.some((url) => /\/assets\/routes-[0-9a-f]+\.js$/.test(url))).toBe(true);
    await expect
      .poll(() => page.evaluate((urls) => urls.every((url) => performance.getEntriesByName(url).some((entry) => Reflect.get(entry, 'responseEnd') > 0)), scripts))
      .toBe(true);
    await page.route('**/assets/**', (route) => route.fulfill({ status: 404, body: 'gone' }));
    await submitAndSettle(page);
    await expectRanOnceAndShowedTheError(key, page, documents);
    expect(problems.some((text) => /assets\/post-once-saved/.test(text))).toBe(true);
    await close();
  });

  test('the connection breaks after the server ran the action, before an answer arrives: once, the error view', async () => {
    const key = `reset-${Date.now()}`;
    const { page, documents, close } = await openForm(key);
    await page.route('**/save', async (route) => {
      if (route.request().resourceType() !== 'fetch') return route.continue();
      await route.fetch();
      return route.abort('connectionreset');
    });
    await submitAndSettle(page);
    await expectRanOnceAndShowedTheError(key, page, documents);
    await close();
  });

  test('the answer is cut short after its first line: once, the error view', async () => {
    const key = `cut-${Date.now()}`;
    const { page, documents, close } = await openForm(key);
    await page.route('**/save', async (route) => {
      if (route.request().resourceType() !== 'fetch') return route.continue();
      const response = await route.fetch();
      const body = await response.text();
      return route.fulfill({ response, body: body.slice(0, body.indexOf('\n') + 1) });
    });
    await submitAndSettle(page);
    await expectRanOnceAndShowedTheError(key, page, documents);
    await close();
  });
});
