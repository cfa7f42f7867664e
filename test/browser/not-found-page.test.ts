import { describe, expect, test } from 'vitest';
import { DESKTOP_CHROME, fixtureSession, watchedPage } from './harness.ts';

// The fixture server with a layout's not-found page standing for unknown addresses (fixture-server-routes.tsx).
const session = fixtureSession({ FIXTURE_NOT_FOUND: '1' });

describe("a layout's not-found page in Chromium", () => {
  test('an unknown address loaded in full is the page inside the layout with 404, and it hydrates', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems } = await watchedPage(context);
    const response = await page.goto(`${session.server.origin}/somewhere/else`);
    expect(response?.status()).toBe(404);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    expect(await page.textContent('h1')).toBe('Nothing at /somewhere/else');
    expect(await page.textContent('.nf-frame')).toContain('Not-found frame (FRAME-DATA)');
    expect(await page.title()).toBe('Nothing here · React Stream Shell');
    // Chrome notes the document's own 404; nothing else.
    expect(problems.filter((text) => !/status of 404/.test(text))).toEqual([]);
    await context.close();
  });

  test('an in-place move to an unknown address shows the page inside the layout that stayed, and back shows the first page', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems } = await watchedPage(context);
    const statuses: number[] = [];
    page.on('response', (answer) => {
      if (new URL(answer.url()).pathname === '/not-found/nowhere/at-all') statuses.push(answer.status());
    });
    await page.goto(`${session.server.origin}/not-found/home`);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    await page.evaluate(() => Reflect.set(window, '__sameDocument', true));
    await page.click('#to-missing');
    await page.waitForSelector('h1:text-is("Nothing at /not-found/nowhere/at-all")');
    expect(await page.evaluate(() => Reflect.get(window, '__sameDocument'))).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/not-found/nowhere/at-all');
    expect(await page.title()).toBe('Nothing here · React Stream Shell');
    expect(await page.textContent('.nf-frame')).toContain('Not-found frame (FRAME-DATA)');
    // The framework's 404 view never showed: the data request's own answer was the page, with 404.
    expect(await page.locator('.status').count()).toBe(0);
    expect(statuses).toEqual([404]);
    await page.goBack();
    await page.waitForSelector('h1:text-is("Not-found home")');
    expect(await page.evaluate(() => Reflect.get(window, '__sameDocument'))).toBe(true);
    expect(problems.filter((text) => !/status of 404/.test(text))).toEqual([]);
    await context.close();
  });

  test('a missing built file is still the plain 404, never the page', async () => {
    const response = await fetch(`${session.server.origin}/assets/missing-file.js`);
    expect(response.status).toBe(404);
    const text = await response.text();
    expect(text).toContain('<h1>404</h1>');
    expect(text).not.toContain('Not-found frame');
  });
});
