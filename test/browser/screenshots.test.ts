import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, startFixtureServer, watchedPage, withoutDocumentStatus, type BrowserSession, type FixtureServer } from './harness.ts';

/** Where a reviewer finds the pictures (README.md, "Browser tests"; docs/browser-tests.md). */
const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', 'artifacts', 'screenshots');

let server: FixtureServer;
let chromium: BrowserSession;

beforeAll(async () => {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  server = await startFixtureServer();
  chromium = await launchChromium();
});
afterAll(async () => {
  await chromium?.close();
  await server?.stop();
});

/** Distinct colours in a PNG, counted by the browser itself after decoding it. */
async function distinctColours(page: Page, file: string): Promise<number> {
  const base64 = (await readFile(file)).toString('base64');
  return page.evaluate(async (data) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d');
    if (context === null) return 0;
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, image.width, image.height).data;
    const colours = new Set<number>();
    for (let i = 0; i < pixels.length; i += 4) colours.add(((pixels[i] ?? 0) << 16) | ((pixels[i + 1] ?? 0) << 8) | (pixels[i + 2] ?? 0));
    return colours.size;
  }, base64);
}

describe('screenshots for review', () => {
  test.each([
    ['home.png', '/', 'light', 'React Stream Shell'],
    ['404-light.png', '/no/such/page', 'light', '404'],
    ['404-dark.png', '/no/such/page', 'dark', '404'],
    ['500.png', '/fixtures/server-throw', 'light', '500'],
  ] as const)('%s is written and is not blank', async (name, path, colorScheme, heading) => {
    const context = await chromium.browser.newContext({ colorScheme, viewport: { width: 1024, height: 640 } });
    const watched = await watchedPage(context);
    const { page } = watched;
    await page.goto(`${server.origin}${path}`);
    expect(await page.locator('h1').innerText()).toBe(heading);
    expect(withoutDocumentStatus(watched)).toEqual([]);
    const file = join(SCREENSHOT_DIR, name);
    await page.screenshot({ path: file });
    expect((await stat(file)).size).toBeGreaterThan(1_000);
    // Text on a background: antialiasing alone gives dozens of colours; a blank page has one.
    const checker = await context.newPage();
    expect(await distinctColours(checker, file)).toBeGreaterThan(10);
    await context.close();
  });
});
