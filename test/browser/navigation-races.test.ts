import type { Route } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { DESKTOP_CHROME, fixtureSession, watchedPage } from './harness.ts';

/**
 * Two navigations in flight at once (client/router.tsx): the newer one wins, whichever
 * step the older one had reached. Here the older one has its data and waits for its page's
 * code, which the test holds back.
 */

const session = fixtureSession();

describe('navigation races in Chromium', () => {
  test("a newer navigation started while the older one's code is still loading wins, and stays", async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME, viewport: { width: 800, height: 600 } });
    const { page } = await watchedPage(context);
    await page.goto(`${session.server.origin}/nav/a`);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    await page.evaluate(() => Reflect.set(window, '__sameDocument', true));

    // Page B's code (its module and the preload of it on hover) waits until the test lets it go.
    const held: Route[] = [];
    await page.route(/\/assets\/nav-b-[^/]*\.js$/, (route) => {
      held.push(route);
    });
    const dataOfB = page.waitForResponse((response) => new URL(response.url()).pathname === '/nav/b' && response.request().headers()['x-navigation'] === 'data');
    await page.click('#to-b');
    await dataOfB;
    await expect.poll(() => held.length).toBeGreaterThan(0);

    // The newer navigation: a page that needs no code of its own (the 404 view).
    await page.click('#to-missing');
    await page.waitForSelector('h1:text("404")');
    for (const route of held.splice(0)) await route.continue();
    await page.unroute(/\/assets\/nav-b-[^/]*\.js$/);
    // Page B's code has arrived: the older navigation must not show it now.
    await expect
      .poll(() =>
        page.evaluate(() =>
          performance.getEntriesByType('resource').some((entry) => /\/assets\/nav-b-/.test(entry.name) && 'responseEnd' in entry && Number(entry.responseEnd) > 0),
        ),
      )
      .toBe(true);
    await page.waitForTimeout(500);
    expect(await page.textContent('h1')).toBe('404');
    expect(new URL(page.url()).pathname).toBe('/nav/missing');
    expect(await page.title()).toBe('404: This page could not be found.');
    expect(await page.evaluate(() => Reflect.get(window, '__sameDocument'))).toBe(true);
    await context.close();
  });
});
