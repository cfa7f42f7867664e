import { describe, expect, test } from 'vitest';
import { BAD_FRAGMENT } from '../support/fixture-pages/bad-fragment.tsx';
import { DESKTOP_CHROME, fixtureSession, watchedPage } from './harness.ts';

const session = fixtureSession();

describe('a #fragment that is not valid percent-encoding', () => {
  test('a link to it moves in place and scrolls to the element whose id is the fragment as written; back and forward keep the page', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME, viewport: { width: 800, height: 600 } });
    const { page, problems, documents } = await watchedPage(context);
    await page.goto(`${session.server.origin}/fixtures/fragment/a`);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    const targetTop = () => page.evaluate((id) => Math.abs(Math.round(document.getElementById(id)?.getBoundingClientRect().top ?? -1)), BAD_FRAGMENT);

    await page.click('#to-other');
    await page.waitForSelector('h1:text-is("Fragment page B")', { timeout: 5_000 });
    expect(page.url()).toBe(`${session.server.origin}/fixtures/fragment/b#${BAD_FRAGMENT}`);
    await expect.poll(targetTop).toBe(0);

    await page.goBack();
    await page.waitForSelector('h1:text-is("Fragment page A")', { timeout: 5_000 });
    await page.goForward();
    await page.waitForSelector('h1:text-is("Fragment page B")', { timeout: 5_000 });
    expect(page.url()).toBe(`${session.server.origin}/fixtures/fragment/b#${BAD_FRAGMENT}`);
    // From B to A's target, then back to B's entry once more: the page is there every time.
    await page.click('#to-other');
    await page.waitForSelector('h1:text-is("Fragment page A")', { timeout: 5_000 });
    await expect.poll(targetTop).toBe(0);
    await page.goBack();
    await page.waitForSelector('h1:text-is("Fragment page B")', { timeout: 5_000 });
    expect(await page.locator('#root main').count()).toBe(1);

    expect(documents).toEqual([`${session.server.origin}/fixtures/fragment/a`]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
