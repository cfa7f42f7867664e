import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { DESKTOP_CHROME, fixtureSession, watchedPage } from './harness.ts';

const session = fixtureSession();

/** How late the styled page's stylesheet arrives: long enough that a page shown without waiting for it shows unstyled. */
const STYLESHEET_DELAY_MS = 600;

describe('stylesheets in Chromium', () => {
  test("the home page's look comes from its built stylesheet, inline in the document, with no CSP violation", async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems } = await watchedPage(context);
    await page.goto(`${session.server.origin}/`);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    const look = await page.evaluate(() => {
      const main = document.querySelector('main');
      // Which stylesheet holds the rule that gives `main` its width: a file's, or an inline element's (href null).
      const sheet = [...document.styleSheets].find((candidate) =>
        [...candidate.cssRules].some((rule) => rule instanceof CSSStyleRule && rule.selectorText === '.app-main' && rule.style.maxWidth !== ''),
      );
      return {
        maxWidth: main === null ? '' : getComputedStyle(main).maxWidth,
        font: getComputedStyle(document.body).fontFamily,
        from: sheet === undefined ? 'nowhere' : (sheet.href ?? (sheet.ownerNode instanceof Element ? `inline ${sheet.ownerNode.getAttribute('data-href')}` : 'an inline style')),
        linked: document.querySelectorAll('link[rel=stylesheet]').length,
      };
    });
    expect(look.maxWidth).toBe('768px');
    expect(look.font).toContain('system-ui');
    // Small enough to travel inside the document (docs/styles.md): the built file's text, allowed by its hash.
    expect(look.from).toMatch(/^inline \/assets\/home-[A-Z0-9]+\.css$/);
    expect(look.linked).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('an image the stylesheet names loads from its built file under /assets/, within the policy', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems } = await watchedPage(context);
    await page.goto(`${session.server.origin}/styles/styled`);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    const url = await page.evaluate(() => {
      const heading = document.querySelector('h1.styled-heading');
      return heading === null ? '' : (/url\("([^"]+)"\)/.exec(getComputedStyle(heading).backgroundImage)?.[1] ?? '');
    });
    // Fetched by the page as it was styled: its resource entry says how it came.
    await page.waitForFunction((name) => performance.getEntriesByType('resource').some((candidate) => candidate.name === name), url, { timeout: 5_000 });
    const image = await page.evaluate(async (url) => {
      const entry = performance.getEntriesByType('resource').find((candidate) => candidate.name === url) as PerformanceResourceTiming | undefined;
      return { url: url.replace(location.origin, ''), status: entry?.responseStatus, type: entry === undefined ? '' : (await fetch(url)).headers.get('content-type') };
    }, url);
    expect(image).toEqual({ url: expect.stringMatching(/^\/assets\/marker-[0-9A-F]{12}\.png$/), status: 200, type: 'image/png' });
    expect(problems).toEqual([]);
    await context.close();
  });

  test("an in-place navigation shows the new page styled as its heading appears, and going back drops that page's rules", async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems, documents } = await watchedPage(context);
    await page.goto(`${session.server.origin}/styles/plain`);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    const plainBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    // The styled page's stylesheet comes late, whoever asks for it.
    await page.route(/\/assets\/styled-[A-Z0-9]+\.css$/, async (route) => {
      await delay(STYLESHEET_DELAY_MS);
      await route.continue();
    });
    // Notes the heading's colour the moment React puts it in the document, before any paint.
    await page.evaluate(() => {
      new MutationObserver((_records, observer) => {
        const heading = document.querySelector('h1.styled-heading');
        if (heading === null) return;
        Reflect.set(window, '__colourOnArrival', getComputedStyle(heading).color);
        observer.disconnect();
      }).observe(document.getElementById('root') ?? document.body, { childList: true, subtree: true });
    });
    const started = Date.now();
    await page.click('#to-styled');
    await page.waitForSelector('h1.styled-heading', { timeout: 10_000 });
    expect(await page.evaluate(() => Reflect.get(window, '__colourOnArrival'))).toBe('rgb(0, 90, 0)');
    // It waited for the stylesheet, which was late.
    expect(Date.now() - started).toBeGreaterThanOrEqual(STYLESHEET_DELAY_MS - 50);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(235, 250, 235)');

    await page.goBack();
    await page.waitForSelector('h1:text-is("Plain page")');
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(plainBackground);
    // The announcer stays hidden whichever page is shown: its rule is the framework's, in every page's stylesheet.
    expect(await page.evaluate(() => getComputedStyle(document.getElementById('nav-announcer') ?? document.body).position)).toBe('absolute');
    // One document: every move was in place.
    expect(documents).toEqual([`${session.server.origin}/styles/plain`]);
    expect(problems).toEqual([]);
    await context.close();
  });

  test("hovering a link fetches its page's stylesheet ahead, and the console stays quiet while that page is not shown", async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems } = await watchedPage(context);
    await page.goto(`${session.server.origin}/styles/plain`);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    const fetched = page.waitForRequest(/\/assets\/styled-[A-Z0-9]+\.css$/, { timeout: 5_000 });
    await page.hover('#to-styled');
    await fetched;
    // Chrome warns a few seconds after the load event about a preloaded resource the page has not used.
    await page.waitForTimeout(5_000);
    expect(problems).toEqual([]);
    await page.click('#to-styled');
    await page.waitForSelector('h1.styled-heading', { timeout: 10_000 });
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(235, 250, 235)');
    expect(problems).toEqual([]);
    await context.close();
  });
});
