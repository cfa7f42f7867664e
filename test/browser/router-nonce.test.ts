import { describe, expect, test } from 'vitest';
import { DESKTOP_CHROME, fixtureSession, watchedPage } from './harness.ts';

const session = fixtureSession();

/**
 * The scripts and preloads the router puts into the page (an in-place move's data, its code
 * preloaded) carry the page's nonce. The product's policy has `'strict-dynamic'`, under which a
 * script a nonce'd script inserts runs without one, so a missing nonce would never show: here the
 * document's policy is served with `'self'` in its place, which allows the site's files but no
 * inline script without the nonce.
 */
describe("the router's scripts under a policy without 'strict-dynamic'", () => {
  test('an in-place move runs its data script and shows the page, with no CSP violation', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const policies: string[] = [];
    await context.route(
      (url) => url.pathname === '/nav/a',
      async (route) => {
        const response = await route.fetch();
        const headers = response.headers();
        const policy = headers['content-security-policy'] ?? '';
        policies.push(policy);
        await route.fulfill({ response, headers: { ...headers, 'content-security-policy': policy.replace("'strict-dynamic'", "'self'") } });
      },
    );
    const { page, problems } = await watchedPage(context);
    await page.goto(`${session.server.origin}/nav/a`);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    // The policy that was served did say 'strict-dynamic', and the rewritten one does not.
    expect(policies[0]).toContain("'strict-dynamic'");
    await page.evaluate(() => Reflect.set(window, '__sameDocument', true));
    await page.hover('#to-b');
    await page.click('#to-b');
    await page.waitForSelector('h1:text-is("Page B")');
    expect(await page.textContent('#served-at')).toMatch(/\d/);
    expect(await page.evaluate(() => Reflect.get(window, '__sameDocument'))).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });
});
