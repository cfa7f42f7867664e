import { describe, expect, test } from 'vitest';
import { DESKTOP_CHROME, fixtureSession, watchedPage } from './harness.ts';

/**
 * A `<Form method="post">` whose encoding the navigation runtime does not send in place
 * (client/router.tsx): `multipart/form-data`, set on the form or on the button that submits
 * it, is left to the browser's own post. The server refuses multipart with its 415 page
 * (docs/building-an-app.md), which is how the test tells the browser's post from an in-place one.
 */

const session = fixtureSession();

describe('forms the navigation runtime leaves to the browser', () => {
  test.each([
    ['the form', (form: HTMLFormElement) => form.setAttribute('enctype', 'multipart/form-data')],
    ['the submitting button', (form: HTMLFormElement) => form.querySelector('#submit')?.setAttribute('formenctype', 'multipart/form-data')],
  ])('enctype multipart/form-data on %s: the browser posts the form itself, as a new document', async (_where, setEncoding) => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, documents } = await watchedPage(context);
    const posts: Array<{ type: string; status: number }> = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST') posts.push({ type: response.request().headers()['content-type'] ?? '', status: response.status() });
    });
    await page.goto(`${session.server.origin}/fixtures/form`);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    await page.evaluate(() => Reflect.set(window, '__sameDocument', true));
    await page.$eval('#signup', setEncoding);
    await page.fill('#name', 'Ada');
    await page.fill('#email', 'ada@example.com');
    await page.click('#submit');
    await page.waitForSelector('h1:text-is("415")');
    expect(posts).toEqual([{ type: expect.stringMatching(/^multipart\/form-data; boundary=/), status: 415 }]);
    // A new document: the browser's post, not the runtime's fetch.
    expect(documents).toEqual([`${session.server.origin}/fixtures/form`, `${session.server.origin}/fixtures/form`]);
    expect(await page.evaluate(() => Reflect.get(window, '__sameDocument'))).toBeUndefined();
    await context.close();
  });
});
