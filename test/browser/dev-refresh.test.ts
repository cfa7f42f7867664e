import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { startDevApp, type DevApp } from '../support/dev-app.ts';
import { DESKTOP_CHROME, launchChromium, watchedPage, type BrowserSession, type WatchedPage } from './harness.ts';

/**
 * The dev command's loop in a real browser: a fixture app copied into a folder of its own, the
 * dev command run there, its files edited while the page is open (docs/rendering.md#development).
 */
let app: DevApp;
let chromium: BrowserSession;
beforeAll(async () => {
  [app, chromium] = await Promise.all([startDevApp(), launchChromium()]);
});
afterAll(async () => {
  await chromium?.close();
  // The command stops its server and exits cleanly on SIGTERM.
  expect(await app?.stop()).toBe(0);
});

// Each test starts from the app as copied, whatever the one before left (a test that failed
// half-way leaves a broken file, and every test after it would fail on that instead of its own
// point); a failed test prints what the dev command said, the only witness of its rounds.
afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') process.stderr.write(`[dev-refresh] the dev command's output:\n${app.output().slice(-6_000)}\n`);
  await app.reset();
});

/** The page open, hydrated and connected to the dev command, the counter clicked twice: state that a reload would lose. */
async function openCounted(): Promise<WatchedPage> {
  await app.settled();
  const context = await chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
  const watched = await watchedPage(context);
  // An edit made before the page listens would test nothing but the page's first load.
  const connected = watched.page.waitForEvent('console', {
    predicate: (message) => message.text() === '[react-stream-shell] connected to the dev command',
    timeout: 20_000,
  });
  await watched.page.goto(`${app.origin}/`);
  await watched.page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
  await connected;
  await watched.page.click('#clicks');
  await watched.page.click('#clicks');
  await watched.page.waitForSelector('#clicks:has-text("2")');
  return watched;
}

const text = (page: Page, selector: string) => page.locator(selector).innerText();
/** The terminal's lines so far that hold `part`. */
const said = (part: string) =>
  app
    .output()
    .split('\n')
    .filter((line) => line.includes(part));

test('an edit to a component module, to the page and to its layout is applied in place, the count kept, and nothing reloads', async () => {
  const { page, problems, documents } = await openCounted();
  await app.edit('pages/label.tsx', '>Clicked<', '>Pressed<');
  await page.waitForSelector('#label:has-text("Pressed")', { timeout: 10_000 });
  expect(await text(page, '#clicks')).toBe('Pressed 2');

  await app.edit('pages/counter.tsx', '<h1>', '<h1 id="greeting">');
  await page.waitForSelector('h1#greeting', { timeout: 10_000 });
  expect(await text(page, '#clicks')).toBe('Pressed 2');
  // The layout exports shouldRevalidate beside its component, unchanged by the edit.
  await app.edit('layouts/root.tsx', '<Outlet />', '<Outlet />\n      <p id="framed">Framed</p>');
  await page.waitForSelector('#framed', { timeout: 10_000 });
  // The state is still live: the next click counts on from it.
  await page.click('#clicks');
  expect(await text(page, '#clicks')).toBe('Pressed 3');

  expect(documents).toEqual([`${app.origin}/`]);
  expect(said('applied in place (Fast Refresh)')).toHaveLength(3);
  // The dev client and the hot modules load under the page's nonce: no CSP violation, no console error.
  expect(problems).toEqual([]);
  await page.context().close();
});

test('a syntax error shows in an overlay with its file, line, column and code frame, and the overlay goes when it is mended', async () => {
  const { page, problems, documents } = await openCounted();
  await app.edit('pages/label.tsx', '</span>;', '</span>;;\n  const = 1;');
  const overlay = page.locator('#react-stream-shell-dev-overlay');
  await overlay.waitFor({ timeout: 10_000 });
  const shown = await overlay.innerText();
  expect(shown).toContain('The build failed');
  expect(shown).toMatch(/app\/pages\/label\.tsx:4:8/);
  expect(shown).toContain('const = 1;');
  // The caret under the column, as the terminal prints it.
  expect(shown).toMatch(/\n\s+[│╵]\s+\^/);

  await app.edit('pages/label.tsx', ';;\n  const = 1;', ';');
  await overlay.waitFor({ state: 'detached', timeout: 10_000 });
  expect(await text(page, '#clicks')).toMatch(/ 2$/);
  expect(documents).toHaveLength(1);
  expect(problems).toEqual([]);
  await page.context().close();
});

test('a render error shows in the overlay, and goes when the component is mended in place', async () => {
  const { page, documents } = await openCounted();
  await app.edit('pages/label.tsx', 'return <span', "if (Date.now() > 0) throw new Error('label broke');\n  return <span");
  const overlay = page.locator('#react-stream-shell-dev-overlay');
  await overlay.waitFor({ timeout: 10_000 });
  expect(await overlay.innerText()).toContain('Error: label broke');

  await app.edit('pages/label.tsx', "if (Date.now() > 0) throw new Error('label broke');\n  ", '');
  await overlay.waitFor({ state: 'detached', timeout: 10_000 });
  await page.waitForSelector('#label', { timeout: 10_000 });
  expect(documents).toHaveLength(1);
  await page.context().close();
});

test('an edit Fast Refresh cannot apply reloads the page, said once in the terminal: exports changed, then a load', async () => {
  const { page, documents } = await openCounted();
  await app.edit('pages/label.tsx', 'export function Label', 'export const shade = "dark";\nexport function Label');
  await page.waitForFunction(() => document.querySelector('#clicks')?.textContent?.endsWith(' 0'), null, { timeout: 10_000 });
  expect(documents).toHaveLength(2);
  await expect.poll(() => said('Fast Refresh could not apply the edit (its exports changed (shade added))')).toHaveLength(1);

  await page.click('#clicks');
  await app.edit('pages/counter.tsx', "greeting: 'Hello'", "greeting: 'Hello again'");
  await page.waitForSelector('h1:has-text("Hello again")', { timeout: 10_000 });
  expect(documents).toHaveLength(3);
  expect(said('app/pages/counter.tsx: its server part changed (load, action or head)')).toHaveLength(1);
  await page.context().close();
});

test('a stylesheet edit is swapped in without a reload', async () => {
  const { page, documents } = await openCounted();
  await app.edit('layouts/root.css', 'rgb(0, 0, 0)', 'rgb(0, 0, 170)');
  await page.waitForFunction(() => getComputedStyle(document.querySelector('main') ?? document.body).color === 'rgb(0, 0, 170)', null, { timeout: 10_000 });
  expect(await text(page, '#clicks')).toMatch(/ 2$/);
  expect(documents).toHaveLength(1);
  await page.context().close();
});
