import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { fixtureSession, openHydrated } from './harness.ts';

const session = fixtureSession();

async function loadCounts(): Promise<Record<string, number>> {
  const res = await fetch(`${session.server.origin}/layouts/load-counts`);
  return (await res.json()) as Record<string, number>;
}

/** The `X-Navigation-Keep` of every request for page data the page makes from now on (`''` for none). */
function keepHeaders(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const headers = request.headers();
    if (headers['x-navigation'] === 'data' && request.method() === 'GET') seen.push(headers['x-navigation-keep'] ?? '');
  });
  return seen;
}

function open(path: string): Promise<Page> {
  return openHydrated(session, path);
}

/** The layout fixtures: the shell keeps its data after a quiet post; the section loads again on the way to the guests page. */
describe("a layout's shouldRevalidate in Chromium", () => {
  test("false after a fetcher's post keeps that layout: the revalidation names it, its data is not sent again, and it was told of the post", async () => {
    const page = await open('/layouts/guests');
    const keeps = keepHeaders(page);
    const before = await loadCounts();
    const shown = await page.textContent('#shell-loads');
    const name = `Quiet ${Date.now()}`;
    await page.fill('#name-c', name);
    await page.click('#add-c');
    await page.waitForSelector(`#guests li:text-is("${name}")`);
    await expect.poll(() => page.textContent('#state-c')).toBe('idle');

    expect(keeps).toEqual(['shell']);
    // The shell shows the data it had; on the server every layout's load ran twice, since a
    // load may be a guard: before the action, and with the revalidation that keeps the shell.
    expect(await page.textContent('#shell-loads')).toBe(shown);
    const after = await loadCounts();
    expect(after.shell).toBe((before.shell ?? 0) + 2);
    expect(after.section).toBe((before.section ?? 0) + 2);
    const asked: unknown[] = await page.evaluate(() => Reflect.get(window, '__shellAsked'));
    const url = `${session.server.origin}/layouts/guests`;
    expect(asked).toEqual([
      {
        currentUrl: url,
        nextUrl: url,
        formMethod: 'POST',
        formAction: '/layouts/guests',
        fields: { intent: 'quiet', name },
        actionResult: expect.stringContaining(`"added":"${name}"`),
        defaultShouldRevalidate: true,
      },
    ]);
    await page.context().close();
  });

  test('true on a navigation loads that layout again where the runtime would keep it; the others stay', async () => {
    const page = await open('/layouts/one');
    const keeps = keepHeaders(page);
    const before = await loadCounts();
    const shown = await page.textContent('#shell-loads');
    await page.click('#to-two');
    await page.waitForSelector('h1:text-is("Page two")');
    await page.click('#to-guests');
    await page.waitForSelector('h1:text-is("Guests")');

    // One → two: both kept, as by default. Two → guests: the section asks to load again.
    expect(keeps).toEqual(['shell,section', 'shell']);
    // Kept, the shell shows the data it had, though its load ran (as a guard) on both moves.
    expect(await page.textContent('#shell-loads')).toBe(shown);
    const after = await loadCounts();
    expect(after.shell).toBe((before.shell ?? 0) + 2);
    expect(after.section).toBe((before.section ?? 0) + 2);
    const asked: { readonly defaultShouldRevalidate: boolean; readonly formMethod?: string }[] = await page.evaluate(() => Reflect.get(window, '__shellAsked'));
    expect(asked.map((call) => [call.defaultShouldRevalidate, call.formMethod])).toEqual([
      [false, undefined],
      [false, undefined],
    ]);
    await page.context().close();
  });
  test("after an action's redirect, the layouts are told of the post that led there", async () => {
    const page = await open('/layouts/guests');
    await page.click('#visit-button');
    await page.waitForSelector('h1:text-is("Page one")');
    const asked: unknown[] = await page.evaluate(() => Reflect.get(window, '__shellAsked'));
    expect(asked).toEqual([
      {
        currentUrl: `${session.server.origin}/layouts/guests`,
        nextUrl: `${session.server.origin}/layouts/one`,
        formMethod: 'POST',
        formAction: '/layouts/guests',
        fields: { intent: 'visit' },
        actionResult: undefined,
        defaultShouldRevalidate: true,
      },
    ]);
    await page.context().close();
  });
});
