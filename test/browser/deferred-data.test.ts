import { describe, expect, test } from 'vitest';
import { DESKTOP_CHROME, fixtureSession, watchedPage } from './harness.ts';
import { loggedLines } from '../support/server-process.ts';

const session = fixtureSession();

describe('deferred data in Chromium', () => {
  test('the shell shows before the slow value, which then hydrates from the same response; the rejection shows the digest the log has', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems } = await watchedPage(context);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(`${request.resourceType()} ${new URL(request.url()).pathname}`));

    // Notes, as the document is parsed, what was in it when the slow value's fallback first
    // appeared. (Not when the fast value did: the parser may yield between the heading and the
    // fallback after it, so the fallback's absence then would say nothing about streaming.)
    await page.addInitScript(() => {
      const seen: Record<string, unknown> = {};
      Reflect.set(window, '__seen', seen);
      new MutationObserver(() => {
        if (seen.fallback === undefined && document.getElementById('slow-fallback') !== null) {
          seen.fallback = { fast: document.getElementById('fast') !== null, slow: document.getElementById('slow') !== null };
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${session.server.origin}/fixtures/deferred`, { waitUntil: 'commit' });
    await page.waitForSelector('#fast', { timeout: 5_000 });

    await page.waitForSelector('#slow', { timeout: 10_000 });
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    await page.waitForSelector('#broken', { timeout: 10_000 });
    expect(await page.textContent('#fast')).toBe('FAST-VALUE');
    expect(await page.textContent('#slow')).toBe('SLOW-VALUE (2026)');
    // The shell was on screen while the slow value was still on its way.
    expect(await page.evaluate(() => Reflect.get(Reflect.get(window, '__seen'), 'fallback'))).toEqual({ fast: true, slow: false });

    const digest = /Digest: ([A-Za-z0-9_-]+)/.exec((await page.textContent('#broken')) ?? '')?.[1];
    expect(digest).toBeDefined();
    const logged = await loggedLines(session.server, (line) => line.level === 50 && line.path === '/fixtures/deferred');
    expect(logged).toEqual([expect.objectContaining({ digest, err: expect.objectContaining({ message: 'fixture: deferred value rejected' }) })]);
    expect(await page.textContent('body')).not.toContain('fixture: deferred value rejected');

    // The values came in the document: nothing but the document and its scripts was requested.
    // The page's own files (its code and its stylesheet) and nothing else: no request for data.
    expect(
      requests.filter(
        (request) => !request.startsWith('script ') && !request.startsWith('stylesheet /assets/') && request !== 'document /fixtures/deferred' && !request.endsWith('/favicon.svg'),
      ),
    ).toEqual([]);
    // No hydration mismatch, no unhandled rejection: only the rejection's own report, by the
    // error boundary that shows it.
    expect(problems).toEqual(['error: DeferredDataError: A deferred value could not be loaded.']);
    await context.close();
  });
});
