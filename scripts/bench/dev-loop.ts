import { chromium, type Page } from 'playwright-core';
import { startDevApp, type DevApp } from '../../test/support/dev-app.ts';
import { CHROMIUM_FLAGS, chromiumPath } from '../../test/support/system-components.ts';

/**
 * `npm run bench:dev`: the dev loop as a developer feels it, save to visible, in Chromium on
 * loopback. The dev command runs in a copy of the dev fixture app (test/support/dev-app.ts), the
 * page is open, and each save's time is from just before the file is written to the moment the
 * page shows the change (a MutationObserver in the page, same clock): a component's edit (Fast
 * Refresh, the click count checked kept), a stylesheet's (swapped after the restart) and a
 * `load`'s (the page reloaded once the restarted server listens). Bounded: a few saves of each,
 * each waited for at most 10 s.
 */
const COMPONENT_SAVES = 10;
const OTHER_SAVES = 5;
const VISIBLE_WITHIN_MS = 10_000;

/** Resolves with the time (Date.now()) at which `selector`'s text first equals `text`, looking again after every change and every load. */
async function seenAt(page: Page, selector: string, text: string): Promise<number> {
  const handle = await page.waitForFunction(
    ({ selector, text }) => {
      const element = document.querySelector(selector);
      const key = `seen:${selector}:${text}`;
      if (element?.textContent === text && sessionStorage.getItem(key) === null) sessionStorage.setItem(key, String(Date.now()));
      return sessionStorage.getItem(key);
    },
    { selector, text },
    { timeout: VISIBLE_WITHIN_MS, polling: 'raf' },
  );
  return Number(await handle.jsonValue());
}

function summary(name: string, times: readonly number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted.length % 2 === 1 ? (sorted[(sorted.length - 1) / 2] ?? 0) : ((sorted[sorted.length / 2 - 1] ?? 0) + (sorted[sorted.length / 2] ?? 0)) / 2;
  return `| ${name} | ${times.length} | ${Math.round(median)} ms | ${Math.round(sorted[0] ?? 0)}–${Math.round(sorted.at(-1) ?? 0)} ms |`;
}

async function measure(app: DevApp, page: Page): Promise<string[]> {
  const rows: string[] = [];
  const component: number[] = [];
  for (let save = 0; save < COMPONENT_SAVES; save += 1) {
    await app.settled();
    const word = `Saved${save}`;
    const before = Date.now();
    await app.edit('pages/label.tsx', /<span id="label">\w+<\/span>/, `<span id="label">${word}</span>`);
    component.push((await seenAt(page, '#label', word)) - before);
    // Fast Refresh kept the count: a reload would have set it back to 0.
    if (!((await page.locator('#clicks').textContent()) ?? '').endsWith(' 2')) throw new Error('the click count was lost: the page reloaded');
  }
  rows.push(summary('a component (Fast Refresh, state kept)', component));

  const styles: number[] = [];
  for (let save = 0; save < OTHER_SAVES; save += 1) {
    await app.settled();
    const color = `rgb(0, 0, ${100 + save})`;
    const before = Date.now();
    await app.edit('layouts/root.css', /color: rgb\([\d, ]+\);/, `color: ${color};`);
    await page.waitForFunction((color) => getComputedStyle(document.querySelector('main') ?? document.body).color === color, color, { timeout: VISIBLE_WITHIN_MS, polling: 'raf' });
    styles.push(Date.now() - before);
  }
  rows.push(summary('a stylesheet (swapped after the restart)', styles));

  const server: number[] = [];
  for (let save = 0; save < OTHER_SAVES; save += 1) {
    await app.settled();
    const greeting = `Hello ${save}`;
    const before = Date.now();
    await app.edit('pages/counter.tsx', /greeting: '[^']*'/, `greeting: '${greeting}'`);
    server.push((await seenAt(page, 'h1', greeting)) - before);
  }
  rows.push(summary("a page's load (reloaded after the restart)", server));
  return rows;
}

const app = await startDevApp();
const browser = await chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_FLAGS] });
try {
  const page = await browser.newPage();
  await page.goto(`${app.origin}/`);
  await page.waitForSelector('#root[data-hydrated]', { timeout: VISIBLE_WITHIN_MS });
  await page.click('#clicks');
  await page.click('#clicks');
  const rows = await measure(app, page);
  process.stdout.write(`${['| save | saves | median | range |', '| --- | --- | --- | --- |', ...rows].join('\n')}\n`);
} finally {
  await browser.close();
  await app.stop();
}
