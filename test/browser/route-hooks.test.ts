import { describe, expect, test } from 'vitest';
import { DESKTOP_CHROME, fixtureSession, watchedPage } from './harness.ts';

const session = fixtureSession();

/** Page B reads its data with useLoaderData in a child component (test/support/fixture-pages/nav-b.tsx). */
describe('the typed data hooks in Chromium', () => {
  test('a page that reads its data through useLoaderData hydrates without a mismatch, and shows the data a navigation brought', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems } = await watchedPage(context);
    await page.goto(`${session.server.origin}/nav/b`);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    const first = await page.textContent('#served-at');
    expect(first).toMatch(/^\d{4}-\d\d-\d\dT/);

    // To A and back to B in place: B's new data comes through the hook.
    await page.click('#to-a');
    await page.waitForSelector('h1:text-is("Page A")');
    await page.click('#to-b');
    await page.waitForSelector('h1:text-is("Page B")');
    await expect.poll(() => page.textContent('#served-at')).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await page.textContent('#served-at')).not.toBe(first);
    expect(problems).toEqual([]);
    await context.close();
  });
});
