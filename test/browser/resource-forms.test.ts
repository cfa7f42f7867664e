import { describe, expect, test } from 'vitest';
import { NAVIGATION_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { DESKTOP_CHROME, fixtureSession, watchedPage } from './harness.ts';

const session = fixtureSession();

/** A context signed in as Ada (the sign-in page's form), on the page that posts to resource routes, hydrated and marked. */
async function signedInOnLeave() {
  const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
  const watched = await watchedPage(context);
  const { page } = watched;
  await page.goto(`${session.server.origin}/members/sign-in`);
  await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
  await page.click('#sign-in');
  await page.waitForSelector('#figures');
  await page.goto(`${session.server.origin}/members/leave`);
  await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
  expect(await page.textContent('#leave-name')).toBe('Signed in as Ada');
  // Gone with the document if the page is loaded again.
  await page.evaluate(() => Reflect.set(window, '__sameDocument', true));
  const posts: string[] = [];
  page.on('response', (response) => {
    if (response.request().method() === 'POST')
      posts.push(`${new URL(response.url()).pathname} ${response.status()} ${response.request().headers()[NAVIGATION_HEADER] ?? 'document'}`);
  });
  return { ...watched, context, posts, sameDocument: () => page.evaluate(() => Reflect.get(window, '__sameDocument') === true) };
}

describe('a <Form> posting to a resource route, in Chromium', () => {
  test('a sign-out whose action redirects moves in place: the same document, the signed-out page, the session gone', async () => {
    const { page, context, problems, documents, posts, sameDocument } = await signedInOnLeave();
    try {
      await page.click('#leave-sign-out');
      await page.waitForSelector('h1:text-is("Signed out")');
      expect(new URL(page.url()).pathname).toBe('/members/signed-out');
      expect(await sameDocument()).toBe(true);
      // Posted with fetch and answered 204 with the redirect's path; no document was loaded for it.
      expect(posts).toEqual(['/members/sign-out 204 data']);
      expect(documents).toEqual([`${session.server.origin}/members/sign-in`, `${session.server.origin}/members/leave`]);
      expect((await context.cookies()).filter((cookie) => cookie.name === '__member')).toEqual([]);
      // The session is gone for the server too: the account refuses, in place.
      await page.click('#to-account');
      await page.waitForSelector('#root h1:text-is("401")');
      expect(await sameDocument()).toBe(true);
      expect(problems.filter((text) => !/status of 401/.test(text))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('an action answering JSON is no page: posted once in place, the error page shows and the console says why; with reloadDocument the browser posts and shows it', async () => {
    const { page, context, problems, posts, sameDocument } = await signedInOnLeave();
    try {
      await page.click('#leave-export');
      await page.waitForSelector('.status h2:has-text("a client-side exception has occurred")');
      expect(await sameDocument()).toBe(true);
      expect(new URL(page.url()).pathname).toBe('/members/leave');
      expect(posts).toEqual(['/members/export 200 data']);
      expect(problems.some((text) => text.includes('no page'))).toBe(true);

      await page.goto(`${session.server.origin}/members/leave`);
      await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
      posts.length = 0;
      await page.click('#leave-export-document');
      await page.waitForURL(`${session.server.origin}/members/export`);
      expect(posts).toEqual(['/members/export 200 document']);
      expect(JSON.parse(await page.evaluate(() => document.body.innerText))).toEqual({ exported: 'Ada' });
    } finally {
      // The JSON document is no page to audit for accessibility: the context ends on the app's.
      await page.goto(`${session.server.origin}/members/signed-out`);
      await context.close();
    }
  });
});
