import { describe, expect, test } from 'vitest';
import { describeFailures, type KnownViolation } from './accessibility.ts';
import { DESKTOP_CHROME, fixtureSession, watchedPage, withoutDocumentStatus } from './harness.ts';
import { loggedLines } from '../support/server-process.ts';

const session = fixtureSession({ FIXTURE_DELAY_MS: '2000' });

describe('the home page in Chromium', () => {
  test('hydrates with no console error or warning and no CSP violation', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems, scripts } = await watchedPage(context);
    const response = await page.goto(`${session.server.origin}/`);
    expect(response?.status()).toBe(200);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    expect(await page.textContent('header')).toContain('React Stream Shell');
    expect(await page.locator('main h1').textContent()).toBe('React Stream Shell');
    expect(scripts.some((url) => url.includes('/assets/home-'))).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('an inline event handler is refused, and the watcher hears the violation', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems } = await watchedPage(context);
    await page.goto(`${session.server.origin}/`);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    // Proves the "no CSP violation" checks of the other cases can fail: helmet's policy has
    // `script-src-attr 'none'`, so an injected handler must not run.
    await page.evaluate(() => document.querySelector('main h1')?.setAttribute('onclick', 'document.body.dataset.injected = "ran"'));
    await page.click('main h1');
    await expect.poll(() => problems.some((text) => text.startsWith('error: CSP violation: script-src-attr'))).toBe(true);
    expect(await page.evaluate(() => document.body.dataset.injected)).toBeUndefined();
    await context.close();
  });
});

describe('streaming in Chromium', () => {
  test('shows the fallback first, then the content in place, matching the server render', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems } = await watchedPage(context);
    await page.goto(`${session.server.origin}/fixtures/delayed`, { waitUntil: 'commit' });
    // The shell is usable before the boundary resolves.
    await page.waitForSelector('#fallback', { timeout: 5_000 });
    expect(await page.locator('#delayed').count()).toBe(0);
    expect(await page.textContent('#shell')).toBe('Streaming shell');

    await page.waitForSelector('#delayed', { timeout: 10_000 });
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    expect(await page.locator('#fallback').count()).toBe(0);
    // In place: between the heading and the footer, where the fallback was.
    const order = await page.$$eval('main > *', (elements) => elements.map((element) => element.id));
    expect(order).toEqual(['shell', 'delayed', 'after']);

    const serverHtml = await (await fetch(`${session.server.origin}/fixtures/delayed`, { headers: { 'User-Agent': 'Googlebot/2.1' } })).text();
    const serverMain = /<main>(.*?)<\/main>/s.exec(serverHtml)?.[1];
    expect(await page.locator('main').innerHTML()).toBe(serverMain);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('exception pages in Chromium', () => {
  test('a server error shows the server-side exception page with the digest the log has', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const watched = await watchedPage(context);
    const { page, scripts } = watched;
    const response = await page.goto(`${session.server.origin}/fixtures/server-throw`);
    expect(response?.status()).toBe(500);
    const text = (await page.innerText('body')) ?? '';
    expect(text).toContain('Application error: a server-side exception has occurred while loading 127.0.0.1 (see the server logs for more information).');
    const digest = /Digest: ([A-Za-z0-9_-]+)/.exec(text)?.[1];
    expect(digest).toBeDefined();
    const [logged] = await loggedLines(session.server, (line) => line.level === 50 && line.digest === digest);
    expect(logged).toMatchObject({ path: '/fixtures/server-throw', err: { message: 'fixture: thrown on the server' } });
    expect(scripts).toEqual([]);
    expect(withoutDocumentStatus(watched)).toEqual([]);
    await context.close();
  });

  test('a component that throws only in the browser shows the client-side exception page', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems } = await watchedPage(context);
    await page.goto(`${session.server.origin}/fixtures/client-throw`);
    await page.waitForSelector('text=Application error', { timeout: 10_000 });
    const hostname = await page.evaluate(() => location.hostname);
    expect(await page.innerText('body')).toContain(
      `Application error: a client-side exception has occurred while loading ${hostname} (see the browser console for more information).`,
    );
    expect(await page.innerText('body')).not.toContain('Digest:');
    expect(await page.innerText('body')).not.toContain('thrown in the browser only');
    // The console has the error, as the page says, once; nothing else went wrong.
    await expect.poll(() => problems.length).toBe(1);
    expect(problems[0]).toMatch(/^error: Error: thrown in the browser only\n/);
    await context.close();
  });

  test('a boundary that failed on the server and again in the browser shows the server wording and its digest', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems } = await watchedPage(context);
    await page.goto(`${session.server.origin}/fixtures/boundary-throw`);
    await page.waitForSelector('text=Application error', { timeout: 10_000 });
    const text = (await page.innerText('body')) ?? '';
    expect(text).toContain('Application error: a server-side exception has occurred while loading 127.0.0.1 (see the server logs for more information).');
    const digest = /Digest: ([A-Za-z0-9_-]+)/.exec(text)?.[1];
    const errors = await loggedLines(session.server, (line) => line.level === 50 && line.path === '/fixtures/boundary-throw');
    expect(errors.map((line) => line.digest)).toContain(digest);
    // React's note that the boundary fell back to the client (#419, with the server digest),
    // then the retry's own error; no warning, no CSP violation.
    await expect.poll(() => problems.length).toBe(2);
    expect(problems[0]).toMatch(/^error: Error: Minified React error #419;/);
    expect(problems[1]).toMatch(/^error: Error: boundary failed on both sides\n/);
    await context.close();
  });
});

describe('the accessibility audit in Chromium', () => {
  // Proves the audit every context gets when it closes (harness.ts) can fail, with JavaScript on
  // and off, and says what and where: an image without a text alternative, added to `/`.
  test.each([
    ['on', true],
    ['off', false],
  ])('with JavaScript %s, hears a violation and names the rule and the element', async (_name, javaScriptEnabled) => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME, javaScriptEnabled });
    const { page } = await watchedPage(context);
    await page.goto(`${session.server.origin}/`);
    if (javaScriptEnabled) await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    await page.evaluate(() => {
      const image = document.createElement('img');
      image.id = 'no-alternative';
      document.querySelector('main')?.append(image);
    });
    await expect(context.close()).rejects.toThrow(/accessibility violation on .*\n {2}image-alt \(critical\): .*\n {6}at #no-alternative\n {6}see https:/);
  });

  test('a known violation that is gone fails the audit, naming what to delete', () => {
    const entry: KnownViolation = { page: '#root > .gone', rules: ['region'], why: 'an example' };
    const failure = describeFailures({ url: 'http://127.0.0.1/', scheme: 'light', scripting: true, violations: [], known: [entry] });
    expect(failure).toContain('known violation region is no longer found on http://127.0.0.1/ (light scheme), the page matching "#root > .gone": delete it from KNOWN_VIOLATIONS');
  });
});
