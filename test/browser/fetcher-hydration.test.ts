import { describe, expect, test } from 'vitest';
import { DESKTOP_CHROME, fixtureSession, watchedPage } from './harness.ts';

const session = fixtureSession();

describe('fetchers read while a Suspense boundary hydrates, in Chromium', () => {
  test('a boundary that hydrates after an effect started a fetcher hydrates what the server rendered (no mismatch), then shows the fetcher under way, its functions stable', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems } = await watchedPage(context);
    const loads: string[] = [];
    page.on('request', (request) => {
      if (request.headers()['x-navigation'] === 'data') loads.push(new URL(request.url()).search);
    });
    await page.goto(`${session.server.origin}/layouts/guests?starter`);
    // The shell hydrates first and its effect starts the 2 s fetcher; the boundary comes 600 ms later.
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    await page.waitForSelector('#later', { timeout: 10_000 });
    await expect.poll(() => page.textContent('#later-in-flight')).toBe('1');
    expect(await page.textContent('#later-shared-state')).toBe('loading');
    expect(await page.textContent('#starter-state')).toBe('loading');
    await expect.poll(() => page.textContent('#starter-state'), { timeout: 10_000 }).toBe('idle');
    expect(await page.textContent('#later-in-flight')).toBe('0');
    expect(await page.textContent('#later-shared-state')).toBe('idle');
    // One load: the effect that started it did not run again as the fetcher's state changed.
    expect(loads).toEqual(['?slow']);
    expect(problems).toEqual([]);
    await context.close();
  });
});
