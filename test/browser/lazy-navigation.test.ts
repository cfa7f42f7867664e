import type { Page, Route } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { DESKTOP_CHROME, fixtureSession, watchedPage, type WatchedPage } from './harness.ts';

const session = fixtureSession();

/** The scripts the page's loader added (client-assets.ts's bootstrap): its entry and the chunks it preloads. */
function startedScripts(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLScriptElement | HTMLLinkElement>('script[type=module][src], link[rel=modulepreload]')].map((element) =>
      'src' in element ? element.src : element.href,
    ),
  );
}

const isRouteTable = (url: string) => /\/assets\/routes-[0-9a-f]+\.js$/.test(url);

/**
 * `path` in a fresh desktop context, hydrated, its network quiet, with a marker on `window` that
 * only survives in-place navigation. `laterChunk`, when given, answers every built chunk the page
 * did not load first: the runtime's among them.
 */
async function open(path: string, laterChunk?: (route: Route) => Promise<void>): Promise<WatchedPage & { readonly first: string[]; readonly close: () => Promise<void> }> {
  const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME, viewport: { width: 800, height: 600 } });
  let first: string[] = [];
  if (laterChunk !== undefined) {
    await context.route(/\/assets\/chunk-[A-Z0-9]+\.js$/, (route) => (first.length > 0 && !first.includes(route.request().url()) ? laterChunk(route) : route.continue()));
  }
  const watched = await watchedPage(context);
  await watched.page.goto(`${session.server.origin}${path}`);
  await watched.page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
  await watched.page.waitForLoadState('networkidle');
  await watched.page.evaluate(() => Reflect.set(window, '__sameDocument', true));
  first = await startedScripts(watched.page);
  return { ...watched, first, close: () => context.close() };
}

const sameDocument = (page: Page) => page.evaluate(() => Reflect.get(window, '__sameDocument') === true);

/** The URLs the page posts to from now on, as it sends them. */
function postsOf(page: Page): string[] {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(request.url());
  });
  return posts;
}

/** The fixture form's fields set and the form sent by a script: no pointer, no focus, no key. */
function submitByScript(page: Page, name: string): Promise<void> {
  return page.evaluate((visitor) => {
    Object.assign(document.getElementById('name') ?? {}, { value: visitor });
    Object.assign(document.getElementById('email') ?? {}, { value: 'ada@example.com' });
    document.querySelector('form')?.requestSubmit(document.getElementById('submit'));
  }, name);
}

describe('the navigation runtime, loaded at the first sign of use', () => {
  test('a page only read loads no more than its own code; a pointer on a link fetches the runtime and the route table, and the click moves in place', async () => {
    const { page, scripts, first, documents, problems, close } = await open('/nav/a');
    // Hydrated, and nothing but what the loader started: neither the runtime's chunk nor the table.
    expect(first.length).toBeGreaterThan(1);
    expect(new Set(scripts)).toEqual(new Set(first));
    await page.hover('#to-b-bottom');
    await expect.poll(() => scripts.filter(isRouteTable)).toHaveLength(1);
    await page.click('#to-b-bottom');
    await page.waitForSelector('h1:text-is("Page B")');
    expect(await sameDocument(page)).toBe(true);
    // Since the first load: the table, the runtime's own chunk and B's code (the hover's prefetch), once each.
    expect(scripts.filter((url) => !first.includes(url))).toHaveLength(3);
    expect(new Set(scripts).size).toBe(scripts.length);
    expect(documents).toEqual([`${session.server.origin}/nav/a`]);
    expect(problems).toEqual([]);
    await close();
  });

  test('a click with no sign before it (a script, an assistive tool) is held while the runtime loads, pending at once, then moves in place', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The runtime's chunk waits until the test lets it go.
    const { page, scripts, first, documents, problems, close } = await open('/nav/a', async (route) => {
      await held;
      await route.continue();
    });
    // A click event alone: no pointer over the link, no focus on it.
    await page.dispatchEvent('#to-b-bottom', 'click');
    // The runtime's chunk is still held back, and the page already says it is loading (useNavigationState).
    await page.waitForSelector('#nav-state[data-state="loading"]', { state: 'attached', timeout: 10_000 });
    expect(await page.textContent('h1')).toBe('Page A');
    release();
    await page.waitForSelector('h1:text-is("Page B")');
    expect(await sameDocument(page)).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/nav/b');
    expect(scripts.filter(isRouteTable)).toHaveLength(1);
    expect(scripts.length).toBeGreaterThan(first.length);
    expect(documents).toEqual([`${session.server.origin}/nav/a`]);
    expect(problems).toEqual([]);
    await close();
  });

  test('a submission with no sign before it is held while the runtime loads, then posted once, in place', async () => {
    const { page, documents, problems, close } = await open('/fixtures/form');
    const posts = postsOf(page);
    await submitByScript(page, 'Quiet Ada');
    await page.waitForSelector('#done', { timeout: 10_000 });
    expect(await page.textContent('#done-name')).toContain('Quiet Ada');
    expect(await sameDocument(page)).toBe(true);
    expect(documents).toEqual([`${session.server.origin}/fixtures/form`]);
    expect(posts).toEqual([`${session.server.origin}/fixtures/form`]);
    expect(problems).toEqual([]);
    await close();
  });

  test('when the runtime cannot be loaded (a deploy has replaced its chunk, say) the held submission goes to the browser, posted once', async () => {
    let refused = 0;
    // Every built chunk the page did not load first is gone: the runtime's among them.
    const { page, documents, close } = await open('/fixtures/form', (route) => {
      refused += 1;
      return route.fulfill({ status: 404, body: '' });
    });
    const posts = postsOf(page);
    await submitByScript(page, 'Plain Ada');
    await page.waitForSelector('#done', { timeout: 10_000 });
    expect(await page.textContent('#done-name')).toContain('Plain Ada');
    expect(refused).toBe(1);
    // The browser's own post, then the page its redirect named: two documents, one post.
    expect(documents).toEqual([`${session.server.origin}/fixtures/form`, `${session.server.origin}/fixtures/form`, `${session.server.origin}/fixtures/form/done?name=Plain%20Ada`]);
    expect(posts).toEqual([`${session.server.origin}/fixtures/form`]);
    await close();
  });
});
