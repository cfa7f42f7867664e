import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { DESKTOP_CHROME, fixtureSession, watchedPage } from './harness.ts';

const session = fixtureSession();

/** Each link of the menu: its id, `aria-current`, class and text. */
function menu(page: Page): Promise<string[][]> {
  return page.$$eval('nav[aria-label=Links] a', (links) => links.map((link) => [link.id, link.getAttribute('aria-current') ?? '-', link.className, link.textContent ?? '']));
}

/** The menu as it should be with `here` the id of its one current link (none for no id). */
function marked(here: 'nl-index' | 'nl-one' | 'nl-two' | undefined): string[][] {
  return [
    ['nl-index', here === 'nl-index' ? 'page' : '-', here === 'nl-index' ? 'active' : '', 'Index'],
    ['nl-one', here === 'nl-one' ? 'page' : '-', here === 'nl-one' ? 'active' : '', 'One'],
    ['nl-two', here === 'nl-two' ? 'page' : '-', here === 'nl-two' ? 'two-here' : 'two-away', here === 'nl-two' ? 'Two (here)' : 'Two'],
  ];
}

describe('NavLink in Chromium', () => {
  test("marks the current page in the server's HTML, hydrates without a change, and marks each page of in-place moves, back and forward", async () => {
    // The document as the server sends it, before any script: the deep page's section link is marked, the index's (end) is not.
    const html = await (await fetch(`${session.server.origin}/nav-links/one/deep?from=server`)).text();
    expect(html).toContain('<a id="nl-one" aria-current="page" class="active" href="/nav-links/one">One</a>');
    expect(html).toContain('<a id="nl-index" href="/nav-links">Index</a>');
    expect(html).toContain('<p id="nl-location">/nav-links/one/deep<!-- -->?from=server</p>');

    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    try {
      const { page, problems, documents } = await watchedPage(context);
      const sameDocument = () => page.evaluate(() => Reflect.get(window, '__sameDocument') === true);
      await page.goto(`${session.server.origin}/nav-links`);
      await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
      await page.evaluate(() => Reflect.set(window, '__sameDocument', true));
      expect(await menu(page)).toEqual(marked('nl-index'));

      // A slow move: the link it goes to is pending meanwhile, the current one still marked.
      await page.click('#to-two-slow');
      await page.waitForSelector('#nl-two.two-pending');
      expect((await menu(page))[0]).toEqual(marked('nl-index')[0]);
      await page.waitForSelector('h1:text-is("Two")');
      expect(await menu(page)).toEqual(marked('nl-two'));
      expect(await page.$eval('#nl-two', (link) => link.style.fontWeight)).toBe('bold');

      await page.click('#nl-index');
      await page.waitForSelector('h1:text-is("Index")');
      expect(await menu(page)).toEqual(marked('nl-index'));
      expect(await page.$eval('#nl-two', (link) => link.style.fontWeight)).toBe('');
      await page.click('#to-deep');
      await page.waitForSelector('h1:text-is("Deep")');
      // Below /nav-links/one: its link is marked; the index's, with `end`, is not.
      expect(await menu(page)).toEqual(marked('nl-one'));
      expect(await page.textContent('#nl-location')).toBe('/nav-links/one/deep?from=index');
      await page.click('#nl-one');
      await page.waitForSelector('h1:text-is("One")');
      expect(await menu(page)).toEqual(marked('nl-one'));
      expect(await page.textContent('#nl-location')).toBe('/nav-links/one');

      await page.goBack();
      await page.waitForSelector('h1:text-is("Deep")');
      expect(await page.textContent('#nl-location')).toBe('/nav-links/one/deep?from=index');
      await page.goBack();
      await page.waitForSelector('h1:text-is("Index")');
      expect(await menu(page)).toEqual(marked('nl-index'));
      await page.goBack();
      await page.waitForSelector('h1:text-is("Two")');
      expect(await menu(page)).toEqual(marked('nl-two'));
      await page.goForward();
      await page.waitForSelector('h1:text-is("Index")');
      expect(await menu(page)).toEqual(marked('nl-index'));

      expect(await sameDocument()).toBe(true);
      expect(documents).toEqual([`${session.server.origin}/nav-links`]);
      // No hydration mismatch, nor anything else.
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
