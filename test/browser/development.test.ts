import { describe, expect, test } from 'vitest';
import { DEVELOPMENT_ASSETS } from './global-setup.ts';
import { DESKTOP_CHROME, fixtureSession, watchedPage } from './harness.ts';

/**
 * Production React stays silent about most hydration mismatches (attributes, the `nonce` the
 * browser hides from the DOM); its development build warns in the console. These cases hydrate
 * the same pages with development React on both sides, so a mismatch cannot hide.
 */
const session = fixtureSession({ NODE_ENV: 'development', ASSETS_DIR: DEVELOPMENT_ASSETS, FIXTURE_DELAY_MS: '300' });

describe('hydration with development React', () => {
  test.each([
    ['the home page', '/', 'main h1'],
    ['the streaming page', '/fixtures/delayed', '#delayed'],
  ])('%s hydrates with no mismatch warning, no console error and no CSP violation', async (_name, path, content) => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems, scripts } = await watchedPage(context);
    await page.goto(`${session.server.origin}${path}`);
    await page.waitForSelector(content, { timeout: 10_000 });
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    expect(problems).toEqual([]);
    // The bundle that ran is the one with the mismatch warning in it, so its silence counts.
    const code = await Promise.all(scripts.map(async (url) => (await fetch(url)).text()));
    expect(code.some((text) => text.includes('A tree hydrated but some attributes'))).toBe(true);
    await context.close();
  });
});

describe('the client-side exception page in development', () => {
  test('adds the message and stack below the generic text, because the server said so', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page } = await watchedPage(context);
    await page.goto(`${session.server.origin}/fixtures/client-throw`);
    await page.waitForSelector('text=Application error', { timeout: 10_000 });
    expect(await page.locator('.status h2').innerText()).toContain('a client-side exception has occurred');
    expect(await page.locator('.status pre').innerText()).toContain('Error: thrown in the browser only');
    await context.close();
  });
});
