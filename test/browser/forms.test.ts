import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DESKTOP_CHROME, launchChromium, startFixtureServer, watchedPage, type BrowserSession, type FixtureServer } from './harness.ts';

let server: FixtureServer;
let chromium: BrowserSession;
let attacker: Server;
let attackerOrigin: string;

beforeAll(async () => {
  server = await startFixtureServer();
  chromium = await launchChromium();
  // Another origin (another port, and `localhost` rather than 127.0.0.1): a page that posts a form to the app.
  attacker = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      `<!DOCTYPE html><html lang="en"><head><title>Elsewhere</title></head><body><main><h1>Elsewhere</h1>` +
        `<form id="evil" method="post" action="${server.origin}/fixtures/form"><input name="name" value="Mallory"><input name="email" value="m@evil.example"><button>Go</button></form>` +
        `</main></body></html>`,
    );
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  const address = attacker.address();
  attackerOrigin = `http://localhost:${typeof address === 'object' && address !== null ? address.port : 0}`;
});
afterAll(async () => {
  await chromium?.close();
  await server?.stop();
  await new Promise<void>((resolve) => attacker?.close(() => resolve()));
});

describe('forms in Chromium', () => {
  test('without JavaScript the browser posts: field errors come back with 422, a valid post redirects with 303', async () => {
    const context = await chromium.browser.newContext({ userAgent: DESKTOP_CHROME, javaScriptEnabled: false });
    const { page } = await watchedPage(context);
    const statuses: number[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST') statuses.push(response.status());
    });
    await page.goto(`${server.origin}/fixtures/form`);
    await page.click('#submit');
    await page.waitForSelector('#form-errors');
    expect(await page.textContent('#name-error')).toBe('Enter your name.');
    await page.fill('#name', 'Ada');
    await page.fill('#email', 'ada@example.com');
    await page.click('#submit');
    await page.waitForSelector('#done');
    expect(await page.textContent('#done-name')).toContain('Ada');
    expect(new URL(page.url()).pathname).toBe('/fixtures/form/done');
    expect(statuses).toEqual([422, 303]);
    await context.close();
  });

  test('with JavaScript the form is sent in place: no reload, the pending state shows, then the result', async () => {
    const context = await chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems, documents } = await watchedPage(context);
    await page.goto(`${server.origin}/fixtures/form`);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    await page.evaluate(() => Reflect.set(window, '__sameDocument', true));

    await page.click('#submit');
    await page.waitForSelector('#form-errors');
    expect(await page.textContent('#email-error')).toBe('Enter an email address such as ada@example.com.');

    await page.fill('#name', 'Slow Ada');
    await page.fill('#email', 'ada@example.com');
    await page.click('#submit');
    await page.waitForSelector('#submit:text-is("Saving…")', { timeout: 5_000 });
    expect(await page.isDisabled('#submit')).toBe(true);
    await page.waitForSelector('#done', { timeout: 10_000 });
    expect(await page.textContent('#done-name')).toContain('Slow Ada');
    expect(new URL(page.url()).pathname).toBe('/fixtures/form/done');
    expect(await page.evaluate(() => Reflect.get(window, '__sameDocument'))).toBe(true);
    expect(documents).toEqual([`${server.origin}/fixtures/form`]);
    // Chrome notes the 422 of the first post's data request; nothing else.
    expect(problems.filter((text) => !/status of 422/.test(text))).toEqual([]);
    await context.close();
  });

  test('field errors shown in place put the focus on the first invalid field, in view, rather than on the heading at the top', async () => {
    // A window so short that the second field sits below the fold of the page's top.
    const context = await chromium.browser.newContext({ userAgent: DESKTOP_CHROME, viewport: { width: 800, height: 160 } });
    const { page, problems } = await watchedPage(context);
    await page.goto(`${server.origin}/fixtures/form`);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    await page.fill('#name', 'Ada');
    await page.focus('#email');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#email-error');
    // The page is shown again (a new view): wait until the runtime has placed the focus.
    await page.waitForFunction(() => document.activeElement !== null && document.activeElement !== document.body, null, { timeout: 5_000 });
    const where = await page.evaluate(() => {
      const field = document.querySelector('#email')?.getBoundingClientRect();
      return { focused: document.activeElement?.id, top: field?.top ?? -1, bottom: field?.bottom ?? -1, height: innerHeight, scrollY };
    });
    expect(where.focused).toBe('email');
    expect(where.top).toBeGreaterThanOrEqual(0);
    expect(where.bottom).toBeLessThanOrEqual(where.height);
    expect(where.scrollY).toBeGreaterThan(0);
    expect(problems.filter((text) => !/status of 422/.test(text))).toEqual([]);
    await context.close();
  });

  test('a form on another origin that posts to the app is refused with the 403 page, and the log says why', async () => {
    const context = await chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page } = await watchedPage(context);
    await page.goto(`${attackerOrigin}/`);
    const posted = page.waitForResponse((response) => response.url() === `${server.origin}/fixtures/form` && response.request().method() === 'POST');
    await page.click('#evil button');
    expect((await posted).status()).toBe(403);
    await page.waitForSelector('h1:text-is("403")');
    expect(await page.textContent('h2')).toBe('This page could not be accessed.');
    await expect.poll(() => server.logs.some((line) => line.msg === 'csrf refused' && line.reason === 'cross-site')).toBe(true);
    expect(server.logs.some((line) => line.msg === 'csrf refused' && JSON.stringify(line).includes('Mallory'))).toBe(false);
    await context.close();
  });
});
