import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { DESKTOP_CHROME, fixtureSession, watchedPage, type WatchedPage } from './harness.ts';

const session = fixtureSession();

/** The guests page (fixture-pages/layouts/guests.tsx: its CodeSubmitter), hydrated, inside the shell and section layouts. */
async function openSubmitter(): Promise<WatchedPage & { readonly close: () => Promise<void> }> {
  const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
  const watched = await watchedPage(context);
  await watched.page.goto(`${session.server.origin}/layouts/guests`);
  await watched.page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
  return { ...watched, close: () => context.close() };
}

/** Records each text the fetcher's state shows from now on, as React writes it. */
async function recordStates(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const element = document.getElementById('submitter-state');
    const seen: string[] = [element?.textContent ?? ''];
    Reflect.set(window, '__states', seen);
    if (element !== null) new MutationObserver(() => seen.push(element.textContent ?? '')).observe(element, { childList: true, characterData: true, subtree: true });
  });
  return () => page.evaluate(() => [...(Reflect.get(window, '__states') as string[])]);
}

describe('fetcher.submit() in Chromium', () => {
  test("posts the page's form token in its body, the same as its csrf cookie", async () => {
    const { page, problems, close } = await openSubmitter();
    const posted = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/layouts/guests');
    await page.click('#submit-once');
    const body = new URLSearchParams((await posted).postData() ?? '');
    expect(body.get('name')).toBe('once');
    const cookie = (await page.context().cookies()).find((each) => each.name === 'csrf')?.value;
    expect(cookie).toMatch(/^[\w-]{22}\.[\w-]{43}$/);
    // The double-submit half the server checks when the browser's headers do not decide.
    expect(body.get('_csrf')).toBe(cookie);
    await page.waitForSelector('#submitter-took:text-is("once")');
    expect(problems).toEqual([]);
    await close();
  });

  test("a second submit while the first runs: the first's abort never turns the fetcher idle, and the second's result shows", async () => {
    const { page, problems, close } = await openSubmitter();
    const states = await recordStates(page);
    await page.click('#submit-twice');
    await page.waitForSelector('#submitter-took:text-is("second")');
    await expect.poll(states).toEqual(['idle', 'submitting', 'loading', 'idle']);
    expect(await page.locator('#guests li', { hasText: 'second' }).count()).toBe(1);
    expect(problems).toEqual([]);
    await close();
  });

  test('a link to the address already on the screen loads every level again, the layouts staying mounted', async () => {
    const { page, problems, close } = await openSubmitter();
    await page.evaluate(() => Reflect.set(window, '__sameDocument', true));
    await page.fill('#shell-input', 'typed in the shell');
    const data = page.waitForRequest((request) => request.headers()['x-navigation'] === 'data' && new URL(request.url()).pathname === '/layouts/guests');
    // The shell's link to the guests page, which is on the screen.
    await page.click('#to-guests');
    // As React Router revalidates on a link to the current URL (docs/navigation.md#layouts-and-revalidation):
    // no layout named to keep, so each one's data comes again.
    expect((await data).headers()['x-navigation-keep'] ?? '').toBe('');
    await page.waitForLoadState('networkidle');
    // The layouts' components stayed where they were: what was typed in the shell is still there.
    expect(await page.inputValue('#shell-input')).toBe('typed in the shell');
    expect(await page.evaluate(() => Reflect.get(window, '__sameDocument'))).toBe(true);
    expect(problems).toEqual([]);
    await close();
  });
});
