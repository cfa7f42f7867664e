import type { Page, Request } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { DESKTOP_CHROME, fixtureSession, watchedPage, withoutDocumentStatus } from './harness.ts';
import { loggedLines } from '../support/server-process.ts';

const session = fixtureSession();

/** Every page-data request (an in-place navigation's) the page makes from now on, with the layouts it asked to keep. */
function dataRequests(page: Page): { readonly url: string; readonly keep: string | undefined }[] {
  const seen: { url: string; keep: string | undefined }[] = [];
  page.on('request', (request: Request) => {
    const headers = request.headers();
    if (headers['x-navigation'] === 'data') seen.push({ url: new URL(request.url()).pathname, keep: headers['x-navigation-keep'] });
  });
  return seen;
}

async function loadCounts(): Promise<Record<string, number>> {
  const res = await fetch(`${session.server.origin}/layouts/load-counts`);
  return (await res.json()) as Record<string, number>;
}

/** The layout fixtures: a shell (with a field and a click counter) around a section around pages one, two and broken (test/support/fixture-pages/layouts/). */
describe('layouts in Chromium', () => {
  test('moving between two pages of one layout keeps the layouts mounted (a typed value, focus, state) and fetches only the page data', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems } = await watchedPage(context);
    await page.goto(`${session.server.origin}/layouts/one`);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    expect(await page.textContent('h1')).toBe('Page one');
    expect(await page.title()).toBe('One · Section · React Stream Shell');
    const before = await loadCounts();

    await page.click('#shell-clicks');
    await page.fill('#shell-input', 'kept value');
    const shellNode = await page.evaluateHandle(() => document.getElementById('shell'));
    const requests = dataRequests(page);
    // A script's click leaves the focus in the field, as a search box that navigates as one types would.
    await page.evaluate(() => document.querySelector<HTMLAnchorElement>('#to-two')?.click());
    await page.waitForSelector('h1:text-is("Page two")');

    expect(await page.inputValue('#shell-input')).toBe('kept value');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('shell-input');
    expect(await page.textContent('#shell-clicks')).toBe('Clicked 1');
    expect(await page.evaluate((node) => node === document.getElementById('shell'), shellNode)).toBe(true);
    expect(await page.title()).toBe('Two · Section · React Stream Shell');
    // One request, for the page's data, naming both layouts; their loads ran on the server, as
    // guards, but their data was not sent: the layouts still show what they had.
    expect(requests).toEqual([{ url: '/layouts/two', keep: 'shell,section' }]);
    const after = await loadCounts();
    expect(after.shell).toBe((before.shell ?? 0) + 1);
    expect(after.section).toBe((before.section ?? 0) + 1);
    expect(await page.textContent('#shell-loads')).toBe(String(before.shell));
    expect(problems).toEqual([]);
    await context.close();
  });

  test("a page's load that fails shows the section's ErrorBoundary inside the layouts, with the digest of the log line, on a full load and in place", async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const watched = await watchedPage(context);
    const { page } = watched;
    const response = await page.goto(`${session.server.origin}/layouts/broken`);
    expect(response?.status()).toBe(500);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    expect(await page.isVisible('#shell header')).toBe(true);
    const digest = await page.textContent('#section-digest');
    expect(digest).toMatch(/^[A-Za-z0-9_-]{8,}$/);
    expect(await loggedLines(session.server, (line) => line.level === 50 && line.digest === digest)).toHaveLength(1);

    // In place, from a page of the same layout: the layouts stay, the boundary takes the page's place.
    await page.click('#to-one');
    await page.waitForSelector('h1:text-is("Page one")');
    await page.fill('#shell-input', 'still here');
    await page.click('#to-broken');
    await page.waitForSelector('#section-error');
    const inPlace = await page.textContent('#section-digest');
    expect(inPlace).not.toBe(digest);
    expect(await loggedLines(session.server, (line) => line.level === 50 && line.digest === inPlace)).toHaveLength(1);
    expect(await page.inputValue('#shell-input')).toBe('still here');

    // A status helper's 404 shows the same boundary with the status.
    await page.click('#to-missing');
    await page.waitForSelector('#section-error h1:text-is("404")');
    // The in-place request's 404 is the answer asked for, as the document's own status is.
    expect(withoutDocumentStatus(watched).filter((text) => !text.endsWith('/layouts/broken?missing>'))).toEqual([]);
    await context.close();
  });

  test('back and forward restore the pages inside the kept layouts, and the scroll of each', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME, viewport: { width: 800, height: 400 } });
    const { page, problems } = await watchedPage(context);
    await page.goto(`${session.server.origin}/layouts/one`);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    await page.fill('#shell-input', 'across history');
    await page.click('#to-two');
    await page.waitForSelector('h1:text-is("Page two")');
    await page.evaluate(() => scrollTo(0, 900));
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(900);
    await page.goBack();
    await page.waitForSelector('h1:text-is("Page one")');
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(0);
    await page.goForward();
    await page.waitForSelector('h1:text-is("Page two")');
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(900);
    // The layouts stayed through both moves.
    expect(await page.inputValue('#shell-input')).toBe('across history');
    expect(problems).toEqual([]);
    await context.close();
  });
});
