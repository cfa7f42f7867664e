import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadClientAssets } from '../../server/render/client-assets.ts';
import { buildApp } from '../support/build-app.ts';
import { routes as fixtureServerRoutes } from '../support/fixture-server-routes.tsx';
import { close, listen } from '../support/http-client.ts';
import { FIXTURE_OUT } from './global-setup.ts';
import { DESKTOP_CHROME, launchChromium, watchedPage, type BrowserSession } from './harness.ts';

/**
 * notFound() in a boundary after the shell was sent (docs/status-pages.md): the status line
 * already said 200, so the browser must show the 404 view itself and keep the page out of
 * search indexes. Served in-process from the fixture pages' production client build.
 */
let server: Server;
let origin: string;
let chromium: BrowserSession;

beforeAll(async () => {
  const routes = fixtureServerRoutes.filter((route) => route.path.startsWith('/late/'));
  // The status pages in the app's words in French too (docs/status-pages.md#the-apps-choices).
  const { app } = buildApp(routes, { assets: loadClientAssets(join(FIXTURE_OUT, 'client')), statusPages: { messages: { fr: { 404: 'Page introuvable.' } } } });
  ({ server, origin } = await listen(app));
  chromium = await launchChromium();
});
afterAll(async () => {
  await chromium?.close();
  if (server !== undefined) await close(server);
});

describe('a late status helper in Chromium', () => {
  test.each([
    ['on the server only (the browser renders the boundary)', '/late/server', 'en-US', 'This page could not be found.'],
    ['on both sides', '/late/both', 'en-US', 'This page could not be found.'],
    // The app words its 404 in French: the view says what its status page would.
    ['on the server only (the browser renders the boundary)', '/late/server', 'fr-FR', 'Page introuvable.'],
    ['on both sides', '/late/both', 'fr-FR', 'Page introuvable.'],
  ])('called %s (%s), in a browser asking for %s, shows the 404 view in the words of its status page and asks not to be indexed', async (_where, path, locale, words) => {
    const context = await chromium.browser.newContext({ userAgent: DESKTOP_CHROME, locale });
    const { page } = await watchedPage(context);
    const response = await page.goto(`${origin}${path}`);
    expect(response?.status()).toBe(200);

    await page.waitForSelector('.status h1', { timeout: 10_000 });
    expect(await page.locator('.status h1').innerText()).toBe('404');
    expect(await page.locator('.status h2').innerText()).toBe(words);
    const text = await page.innerText('body');
    expect(text).not.toContain('Application error');
    expect(text).not.toContain('Digest');
    expect(text).not.toContain('LATE-CONTENT');
    expect(await page.locator('head meta[name="robots"][content="noindex"]').count()).toBe(1);
    await context.close();
  });
});
