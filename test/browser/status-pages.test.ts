import type { Page, Response } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { fixtureSession, watchedPage, withoutDocumentStatus } from './harness.ts';
import { loggedLines } from '../support/server-process.ts';

const session = fixtureSession();

/** An address on the server's origin that the browser answers itself with a plain HTML form. */
const FORM_PATH = '/__browser-test-form';

/**
 * Posts a real HTML form to a page: the browser's own submission, which works with JavaScript
 * off too, and renders the 405 document it gets back.
 */
async function postForm(page: Page, origin: string): Promise<Response | null> {
  await page.route(`${origin}${FORM_PATH}`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><form method="post" action="/"><button>Send</button></form>' }),
  );
  await page.goto(`${origin}${FORM_PATH}`);
  const [response] = await Promise.all([page.waitForResponse((candidate) => candidate.request().method() === 'POST' && candidate.url() === `${origin}/`), page.click('button')]);
  await page.waitForLoadState('load');
  return response;
}

interface StatusPageCase {
  readonly name: string;
  readonly status: number;
  readonly title: string;
  readonly message: string;
  readonly open: (page: Page, origin: string) => Promise<Response | null>;
}

const SERVER_ERROR_MESSAGE = 'Application error: a server-side exception has occurred while loading 127.0.0.1 (see the server logs for more information).';

/** How a test reaches each status page of docs/status-pages.md in a real navigation. */
const STATUS_PAGES: readonly StatusPageCase[] = [
  {
    name: '400 (undecodable percent-encoding in the path)',
    status: 400,
    title: '400: Bad Request.',
    message: 'Bad Request.',
    open: (page, origin) => page.goto(`${origin}/%E0%A4%A`),
  },
  {
    name: '401 (unauthorized() in load)',
    status: 401,
    title: "401: You're not authorized to access this page.",
    message: "You're not authorized to access this page.",
    open: (page, origin) => page.goto(`${origin}/fixtures/unauthorized`),
  },
  {
    name: '403 (forbidden() in load)',
    status: 403,
    title: '403: This page could not be accessed.',
    message: 'This page could not be accessed.',
    open: (page, origin) => page.goto(`${origin}/fixtures/forbidden`),
  },
  {
    name: '404 (no route matches)',
    status: 404,
    title: '404: This page could not be found.',
    message: 'This page could not be found.',
    open: (page, origin) => page.goto(`${origin}/no/such/page`),
  },
  {
    name: '404 (notFound() while the shell renders)',
    status: 404,
    title: '404: This page could not be found.',
    message: 'This page could not be found.',
    open: (page, origin) => page.goto(`${origin}/fixtures/not-found-in-render`),
  },
  {
    name: '405 (a form posted to a page)',
    status: 405,
    title: '405: Method Not Allowed.',
    message: 'Method Not Allowed.',
    open: postForm,
  },
  {
    name: '500 (load throws)',
    status: 500,
    title: '500: Internal Server Error.',
    message: SERVER_ERROR_MESSAGE,
    open: (page, origin) => page.goto(`${origin}/fixtures/server-throw`),
  },
];

const BACKGROUND = { light: 'rgb(255, 255, 255)', dark: 'rgb(10, 10, 10)' } as const;
const TEXT = { light: 'rgb(17, 17, 17)', dark: 'rgb(237, 237, 237)' } as const;

/** The digest line of a 500 page: present, URL-safe, and the one the server logged. */
async function expectLoggedDigest(page: Page): Promise<void> {
  const digest = /^Digest: ([A-Za-z0-9_-]+)$/.exec(await page.locator('.digest').innerText())?.[1];
  expect(digest).toBeDefined();
  expect(await loggedLines(session.server, (line) => line.level === 50 && line.digest === digest)).toHaveLength(1);
}

/** What every status page shows, with or without JavaScript: status, heading, message, digest. */
async function expectStatusShown(page: Page, response: Response | null, entry: (typeof STATUS_PAGES)[number]): Promise<void> {
  expect(response?.status()).toBe(entry.status);
  expect(await page.locator('h1').innerText()).toBe(String(entry.status));
  expect(await page.locator('h2').innerText()).toBe(entry.message);
  if (entry.status === 500) await expectLoggedDigest(page);
}

describe('status pages in Chromium', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test.each(STATUS_PAGES.map((entry) => [entry.name, entry] as const))(`%s renders its heading and message in the ${scheme} scheme, with no JavaScript`, async (_name, entry) => {
      const context = await session.chromium.browser.newContext({ colorScheme: scheme });
      const watched = await watchedPage(context);
      const { page, scripts } = watched;
      await expectStatusShown(page, await entry.open(page, session.server.origin), entry);
      expect(await page.title()).toBe(entry.title);
      expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
      const colours = await page.evaluate(() => ({ background: getComputedStyle(document.body).backgroundColor, text: getComputedStyle(document.body).color }));
      expect(colours).toEqual({ background: BACKGROUND[scheme], text: TEXT[scheme] });
      // Centred: the status line sits in the middle of the viewport, both ways.
      const box = await page.locator('.status-line').boundingBox();
      const viewport = page.viewportSize();
      if (box === null || viewport === null) throw new Error('no layout');
      expect(Math.abs(box.x + box.width / 2 - viewport.width / 2)).toBeLessThan(2);
      expect(box.y).toBeGreaterThan(viewport.height / 4);
      expect(scripts).toEqual([]);
      expect(withoutDocumentStatus(watched)).toEqual([]);
      await context.close();
    });
  }
});

describe('with JavaScript disabled', () => {
  test('the home page shows its full text', async () => {
    const context = await session.chromium.browser.newContext({ javaScriptEnabled: false });
    const watched = await watchedPage(context);
    const { page } = watched;
    await page.goto(`${session.server.origin}/`);
    expect(await page.locator('header').innerText()).toBe('React Stream Shell');
    expect(await page.locator('main').innerText()).toBe('React Stream Shell\n\nThe server streamed this page and the browser hydrated it.');
    expect(withoutDocumentStatus(watched)).toEqual([]);
    await context.close();
  });

  test.each(STATUS_PAGES.map((entry) => [entry.name, entry] as const))('the %s page shows its full text', async (_name, entry) => {
    const context = await session.chromium.browser.newContext({ javaScriptEnabled: false });
    const watched = await watchedPage(context);
    const { page, scripts } = watched;
    await expectStatusShown(page, await entry.open(page, session.server.origin), entry);
    expect(scripts).toEqual([]);
    expect(withoutDocumentStatus(watched)).toEqual([]);
    await context.close();
  });
});
