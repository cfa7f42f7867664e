import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, startFixtureServer, watchedPage, withoutDocumentStatus, type BrowserSession, type FixtureServer } from './harness.ts';

let server: FixtureServer;
let chromium: BrowserSession;

beforeAll(async () => {
  server = await startFixtureServer();
  chromium = await launchChromium();
});
afterAll(async () => {
  await chromium?.close();
  await server?.stop();
});

/** How a test reaches each status page of SPEC §4 in a real navigation. */
const STATUS_PAGES = [
  { status: 400, heading: '400', message: 'Bad Request.', open: (page: Page, origin: string) => page.goto(`${origin}/%E0%A4%A`) },
  { status: 401, heading: '401', message: "You're not authorized to access this page.", open: (page: Page, origin: string) => page.goto(`${origin}/fixtures/unauthorized`) },
  { status: 403, heading: '403', message: 'This page could not be accessed.', open: (page: Page, origin: string) => page.goto(`${origin}/fixtures/forbidden`) },
  { status: 404, heading: '404', message: 'This page could not be found.', open: (page: Page, origin: string) => page.goto(`${origin}/no/such/page`) },
  {
    status: 405,
    heading: '405',
    message: 'Method Not Allowed.',
    // A form posting to a page: the browser renders the 405 document it gets back.
    open: async (page: Page, origin: string) => {
      await page.goto(`${origin}/no/such/page`);
      const [response] = await Promise.all([
        page.waitForNavigation(),
        page.evaluate(() => {
          const form = document.createElement('form');
          form.method = 'post';
          form.action = '/';
          document.body.append(form);
          form.submit();
        }),
      ]);
      return response;
    },
  },
  {
    status: 500,
    heading: '500',
    message: 'Application error: a server-side exception has occurred while loading 127.0.0.1 (see the server logs for more information).',
    open: (page: Page, origin: string) => page.goto(`${origin}/fixtures/server-throw`),
  },
] as const;

const BACKGROUND = { light: 'rgb(255, 255, 255)', dark: 'rgb(10, 10, 10)' } as const;

describe('status pages in Chromium', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test.each(STATUS_PAGES.map((entry) => [entry.status, entry] as const))(`%i renders its heading and message in the ${scheme} scheme, with no JavaScript`, async (status, entry) => {
      const context = await chromium.browser.newContext({ colorScheme: scheme });
      const { page, problems, scripts } = await watchedPage(context);
      const response = await entry.open(page, server.origin);
      expect(response?.status()).toBe(status);
      expect(await page.locator('h1').innerText()).toBe(entry.heading);
      expect(await page.locator('h2').innerText()).toBe(entry.message);
      expect(await page.title()).toBe(`${status}: ${status === 500 ? 'Internal Server Error.' : entry.message}`);
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(BACKGROUND[scheme]);
      // Centred: the heading sits in the middle of the viewport.
      const box = await page.locator('.status-line').boundingBox();
      const viewport = page.viewportSize();
      if (box === null || viewport === null) throw new Error('no layout');
      expect(Math.abs(box.x + box.width / 2 - viewport.width / 2)).toBeLessThan(2);
      expect(scripts).toEqual([]);
      expect(withoutDocumentStatus(problems)).toEqual([]);
      await context.close();
    });
  }
});

describe('with JavaScript disabled', () => {
  test('the home page shows its full text', async () => {
    const context = await chromium.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.origin}/`);
    expect(await page.locator('header').innerText()).toBe('React Stream Shell');
    expect(await page.locator('main').innerText()).toContain('The server streamed this page and the browser hydrated it.');
    await context.close();
  });

  test.each(STATUS_PAGES.filter((entry) => entry.status !== 405).map((entry) => [entry.status, entry] as const))('the %i page shows its full text', async (_status, entry) => {
    const context = await chromium.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await entry.open(page, server.origin);
    expect(await page.locator('h1').innerText()).toBe(entry.heading);
    expect(await page.locator('h2').innerText()).toBe(entry.message);
    await context.close();
  });
});
