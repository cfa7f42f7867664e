import { describe, expect, test } from 'vitest';
import { DESKTOP_CHROME, fixtureSession, watchedPage } from './harness.ts';

const session = fixtureSession();

describe("the document's language and direction in Chromium", () => {
  test("an in-place move sets <html lang dir> to the new page's, and back and forward set each page's again", async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    try {
      const { page, problems } = await watchedPage(context);
      const html = () => page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]);
      const sameDocument = () => page.evaluate(() => Reflect.get(window, '__sameDocument') === true);
      await page.goto(`${session.server.origin}/nav/b?lang=ar&dir=rtl`);
      await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
      await page.evaluate(() => Reflect.set(window, '__sameDocument', true));
      expect(await html()).toEqual(['ar', 'rtl']);

      await page.click('#to-a');
      await page.waitForSelector('h1:text-is("Page A")');
      expect(await sameDocument()).toBe(true);
      expect(await html()).toEqual(['en', '']);
      expect(await page.title()).toBe('Page A · React Stream Shell');

      await page.goBack();
      await page.waitForSelector('h1:text-is("Page B")');
      expect(await sameDocument()).toBe(true);
      expect(await html()).toEqual(['ar', 'rtl']);
      expect(await page.title()).toBe('Page B · React Stream Shell');

      await page.goForward();
      await page.waitForSelector('h1:text-is("Page A")');
      expect(await sameDocument()).toBe(true);
      expect(await html()).toEqual(['en', '']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
