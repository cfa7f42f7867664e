import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, startFixtureServer, watchedPage, withoutDocumentStatus, type BrowserSession } from './harness.ts';

declare global {
  interface Window {
    /** Pushed by the stand-in scripts of fixture-server.tsx when they run. */
    analyticsRan?: string[];
  }
}

let chromium: BrowserSession;
beforeAll(async () => {
  chromium = await launchChromium();
});
afterAll(async () => {
  await chromium?.close();
});

describe('hosting-provider analytics scripts in Chromium', () => {
  test('switched on, both load with the nonce and run, on a page and a status page, with no CSP violation', async () => {
    const server = await startFixtureServer({ ANALYTICS_PAGE_VIEWS: 'on', ANALYTICS_SPEED_INSIGHTS: 'on' });
    try {
      for (const path of ['/', '/no/such/page']) {
        const context = await chromium.browser.newContext();
        const watched = await watchedPage(context);
        const { page, scripts } = watched;
        await page.goto(`${server.origin}${path}`);
        await page.waitForFunction(() => window.analyticsRan?.length === 2);
        expect(await page.evaluate(() => window.analyticsRan)).toEqual(['insights', 'speed-insights']);
        expect(scripts).toEqual(expect.arrayContaining([`${server.origin}/_vercel/insights/script.js`, `${server.origin}/_vercel/speed-insights/script.js`]));
        const nonces = await page.$$eval('script[src*="/_vercel/"]', (elements) => elements.map((element) => (element instanceof HTMLScriptElement ? (element.nonce ?? '') : '')));
        expect(nonces).toHaveLength(2);
        for (const nonce of nonces) expect(nonce.length).toBeGreaterThanOrEqual(22);
        expect(withoutDocumentStatus(watched)).toEqual([]);
        await context.close();
      }
    } finally {
      await server.stop();
    }
  });

  test('switched off, neither is requested', async () => {
    const server = await startFixtureServer();
    try {
      const context = await chromium.browser.newContext();
      const watched = await watchedPage(context);
      const { page, scripts } = watched;
      await page.goto(`${server.origin}/`);
      await page.waitForSelector('#root[data-hydrated]');
      await page.goto(`${server.origin}/no/such/page`);
      expect(scripts.filter((url) => url.includes('/_vercel/'))).toEqual([]);
      expect(withoutDocumentStatus(watched)).toEqual([]);
      await context.close();
    } finally {
      await server.stop();
    }
  });
});
