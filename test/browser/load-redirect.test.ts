import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { NAVIGATION_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { LOAD_REDIRECT_RESOURCE, LOAD_REDIRECT_PATH } from '../support/fixture-pages/load-redirect.tsx';
import { DESKTOP_CHROME, fixtureSession, watchedPage } from './harness.ts';

const session = fixtureSession();

interface Opened {
  readonly page: Page;
  readonly problems: string[];
  /** Every document request after the first page was shown. */
  readonly documents: string[];
  /** Every in-place navigation's request for data, in order. */
  readonly dataRequests: string[];
  close(): Promise<void>;
}

/** The fixture page, hydrated, with a marker on `window` that only an in-place navigation keeps. */
async function open(): Promise<Opened> {
  const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
  const watched = await watchedPage(context);
  const dataRequests: string[] = [];
  watched.page.on('request', (request) => {
    if (request.headers()[NAVIGATION_HEADER] === 'data') dataRequests.push(new URL(request.url()).search);
  });
  await watched.page.goto(`${session.server.origin}${LOAD_REDIRECT_PATH}`);
  await watched.page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
  await watched.page.evaluate(() => Reflect.set(window, '__sameDocument', true));
  watched.documents.length = 0;
  return { ...watched, dataRequests, close: () => context.close() };
}

function sameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => Reflect.get(window, '__sameDocument') === true);
}

describe('a link to a page whose load redirects, in Chromium', () => {
  test('lands on the target in place, with the cookie the redirect set, and back returns to where it started', async () => {
    const { page, problems, documents, dataRequests, close } = await open();
    expect(await page.textContent('#cookie')).toBe('cookie: none');
    await page.click('#one-hop');
    await page.waitForSelector('#cookie:text-is("cookie: 1")');
    expect(await sameDocument(page)).toBe(true);
    expect(documents).toEqual([]);
    expect(page.url()).toBe(`${session.server.origin}${LOAD_REDIRECT_PATH}?hops=0`);
    expect(await page.textContent('#hops')).toBe('hops left: 0');
    // The redirect's answer for the data, then the target's data: nothing else.
    expect(dataRequests).toEqual(['?hops=1', '?hops=0']);
    await page.goBack();
    await expect.poll(() => page.url()).toBe(`${session.server.origin}${LOAD_REDIRECT_PATH}`);
    expect(await sameDocument(page)).toBe(true);
    expect(problems).toEqual([]);
    await close();
  });

  test('a chain of redirects is followed in place ten times, then loaded in full, where the browser follows the rest', async () => {
    const { page, problems, documents, dataRequests, close } = await open();
    await page.click('#many-hops');
    await page.waitForURL(`${session.server.origin}${LOAD_REDIRECT_PATH}?hops=0`, { timeout: 10_000 });
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    // The first request and ten redirects followed in place, then the eleventh loaded in full.
    expect(dataRequests).toEqual(['?hops=15', '?hops=14', '?hops=13', '?hops=12', '?hops=11', '?hops=10', '?hops=9', '?hops=8', '?hops=7', '?hops=6', '?hops=5']);
    expect(documents.map((url) => new URL(url).search)).toEqual(['?hops=4', '?hops=3', '?hops=2', '?hops=1', '?hops=0']);
    expect(await sameDocument(page)).toBe(false);
    expect(await page.textContent('#hops')).toBe('hops left: 0');
    expect(await page.textContent('#cookie')).toBe('cookie: 1');
    expect(problems).toEqual([]);
    await close();
  });

  test('a redirect to a resource route is loaded in full, never taken for a page or a status view', async () => {
    const { page, problems, documents, dataRequests, close } = await open();
    await page.click('#to-resource');
    await page.waitForURL(`${session.server.origin}${LOAD_REDIRECT_RESOURCE}`, { timeout: 10_000 });
    expect(await page.textContent('body')).toContain('RESOURCE-LOADED-IN-FULL');
    expect(dataRequests).toEqual(['?to=resource']);
    expect(documents).toEqual([`${session.server.origin}${LOAD_REDIRECT_RESOURCE}`]);
    expect(problems).toEqual([]);
    await close();
  });
});
