import { describe, expect, test } from 'vitest';
import { DESKTOP_CHROME, fixtureSession, watchedPage } from './harness.ts';

// The fixture server with the status pages in the app's words, English and French (fixture-server.tsx).
const session = fixtureSession({ FIXTURE_STATUS_WORDS: '1' });

/**
 * A status view shown in place speaks the words of the status page it stands for: the app's, in
 * the language the browser asks for (docs/status-pages.md), as the full page does.
 */
describe('status views in the app’s words, in Chromium', () => {
  test.each([
    ['en-US', 'Nothing to see at this address.'],
    ['fr-FR', 'Page introuvable.'],
  ])('a link to a missing page, in a browser asking for %s, shows the 404 view in the words of the full page', async (locale, words) => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME, locale });
    const { page, problems } = await watchedPage(context);
    await page.goto(`${session.server.origin}/nav/a`);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    await page.evaluate(() => Reflect.set(window, '__sameDocument', true));
    await page.click('#to-missing');
    await page.waitForSelector('h1:text("404")');
    expect(await page.textContent('h2')).toBe(words);
    expect(await page.title()).toBe(`404: ${words}`);
    expect(await page.evaluate(() => Reflect.get(window, '__sameDocument'))).toBe(true);
    // The full page, loaded as such, says the same.
    const full = await context.request.get(`${session.server.origin}/nav/nowhere`, { headers: { Accept: 'text/html', 'Accept-Language': locale } });
    expect(await full.text()).toContain(`<title>404: ${words}</title>`);
    expect(problems.filter((text) => !/status of 404/.test(text))).toEqual([]);
    await context.close();
  });
});
