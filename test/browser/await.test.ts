import { describe, expect, test } from 'vitest';
import { loggedLines } from '../support/server-process.ts';
import { DESKTOP_CHROME, fixtureSession, watchedPage } from './harness.ts';

const session = fixtureSession();

describe('<Await> in Chromium', () => {
  test("a rejected value shows its errorElement with the digest of its log line, and the route's ErrorBoundary does not replace the page", async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems } = await watchedPage(context);
    await page.goto(`${session.server.origin}/fixtures/await`);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    await page.waitForSelector('#await-error', { timeout: 10_000 });
    expect(await page.textContent('#await-kept')).toBe('KEPT-VALUE');
    expect(await page.isVisible('#route-boundary')).toBe(false);
    expect(await page.textContent('h1')).toBe('Await');
    const digest = /Digest: ([A-Za-z0-9_-]+)/.exec((await page.textContent('#await-error')) ?? '')?.[1];
    const logged = await loggedLines(session.server, (line) => line.level === 50 && line.path === '/fixtures/await');
    expect(logged).toEqual([expect.objectContaining({ digest, err: expect.objectContaining({ message: 'fixture: awaited value rejected' }) })]);
    // The one report is the rejection's, by the boundary that shows it.
    expect(problems).toEqual(['error: DeferredDataError: A deferred value could not be loaded.']);
    await context.close();
  });
});
