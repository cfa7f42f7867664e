import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { fixtureSession, openHydrated } from './harness.ts';

const session = fixtureSession();

async function openGuests(): Promise<{ readonly page: Page; close(): Promise<void> }> {
  const page = await openHydrated(session, '/layouts/guests');
  return { page, close: () => page.context().close() };
}

describe('fetcher.reset() in Chromium', () => {
  test("after a post, reset() takes the fetcher back to idle without the action's data", async () => {
    const { page, close } = await openGuests();
    const name = `Reset after ${Date.now()}`;
    await page.fill('#name-a', name);
    await page.click('#add-a');
    await page.waitForSelector('#added-a');
    await expect.poll(() => page.textContent('#state-a')).toBe('idle');
    await page.click('#reset-a');
    await page.waitForSelector('#added-a', { state: 'detached' });
    expect(await page.textContent('#state-a')).toBe('idle');
    // The page keeps what the action did: the list has the guest.
    expect(await page.$$eval('#guests li', (items) => items.map((item) => item.textContent))).toContain(name);
    await close();
  });

  test('reset() while a post is on its way: idle at once, and its answer never shows', async () => {
    const { page, close } = await openGuests();
    const name = `Reset during ${Date.now()}`;
    await page.fill('#name-a', name);
    await page.click('#add-a');
    await page.waitForSelector('#state-a:text-is("submitting")');
    await page.click('#reset-a');
    expect(await page.textContent('#state-a')).toBe('idle');
    expect(await page.$('#pending-a')).toBeNull();
    // The action takes 300 ms; well past it, the dropped answer has shown nothing.
    await page.waitForTimeout(1_000);
    expect(await page.textContent('#state-a')).toBe('idle');
    expect(await page.$('#added-a')).toBeNull();
    expect(await page.textContent('#in-flight')).toBe('0');
    await close();
  });
});
