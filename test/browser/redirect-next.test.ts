import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NAVIGATION_REDIRECT_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { DESKTOP_CHROME, fixtureSession, watchedPage } from './harness.ts';

const session = fixtureSession();

/** Another origin (`localhost` rather than 127.0.0.1, another port) that counts every request it gets. */
let attacker: Server;
let attackerHost: string;
const attackerHits: string[] = [];
let onAttackerHit: (() => void) | undefined;

beforeAll(async () => {
  attacker = createServer((req, res) => {
    attackerHits.push(req.url ?? '');
    onAttackerHit?.();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE html><html lang="en"><head><title>Phished</title></head><body><main><h1>Phished</h1></main></body></html>');
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  const address = attacker.address();
  attackerHost = `localhost:${typeof address === 'object' && address !== null ? address.port : 0}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => attacker?.close(() => resolve()));
});

/** The spellings of `?next=` whose path resolves to `//` + the attacker's host. */
function spellings(): string[] {
  return [
    `/.//${attackerHost}/phish`,
    `/x/..//${attackerHost}/phish`,
    `/%2e//${attackerHost}/phish`,
    `/./\\${attackerHost}/phish`,
    `${session.server.origin}//${attackerHost}/phish`,
  ];
}

/**
 * Resolves when the page shows a status view, or the attacker's server is reached, or after 5 s:
 * whichever comes first. The assertions that follow say which.
 */
function settled(page: Page): Promise<unknown> {
  const shown = page.waitForSelector('.status h2', { timeout: 5_000 }).catch(() => undefined);
  return Promise.race([shown, new Promise<void>((resolve) => (onAttackerHit = resolve))]);
}

describe('an action that redirects to ?next= keeps the browser on its own origin', () => {
  // In place, because that is where the browser itself follows the answer (a plain post's 303 to
  // another origin is stopped by the page's CSP `form-action` in Chromium; the wire tests cover it).
  test('hydrated form: every spelling of //other-host ends on the 500 view, never the other origin', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page } = await watchedPage(context);
    attackerHits.length = 0;
    for (const next of spellings()) {
      const start = `${session.server.origin}/fixtures/login?${new URLSearchParams({ next })}`;
      await page.goto(start);
      await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
      const done = settled(page);
      const posted = page.waitForResponse((response) => response.request().method() === 'POST');
      await page.click('#sign-in-submit');
      const answer = await posted;
      await done;
      expect({ next, attackerHits }).toEqual({ next, attackerHits: [] });
      expect(new URL(page.url()).origin).toBe(session.server.origin);
      expect(page.url()).toBe(start);
      expect(await page.textContent('.status h2')).toContain('a server-side exception has occurred');
      // The answer itself: whatever the browser would have done with it, it names no other host.
      expect({ next, status: answer.status(), location: await answer.headerValue('location'), inPlace: await answer.headerValue(NAVIGATION_REDIRECT_HEADER) }).toEqual({
        next,
        status: 500,
        location: null,
        inPlace: null,
      });
    }
    await context.close();
  });

  test(`the browser follows an ${NAVIGATION_REDIRECT_HEADER} to its own origin only, whoever sent it`, async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems } = await watchedPage(context);
    attackerHits.length = 0;
    for (const forged of [`http://${attackerHost}/phish`, `//${attackerHost}/phish`, `/\\${attackerHost}/phish`]) {
      // An answer the server never gives, as something between it and the browser could: the
      // browser runtime must not take it on trust.
      await page.route('**/fixtures/login', (route) =>
        route.request().method() === 'POST' ? route.fulfill({ status: 204, headers: { [NAVIGATION_REDIRECT_HEADER]: forged, 'cache-control': 'no-store' } }) : route.continue(),
      );
      await page.goto(`${session.server.origin}/fixtures/login`);
      await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
      const done = settled(page);
      await page.click('#sign-in-submit');
      await done;
      expect({ forged, attackerHits }).toEqual({ forged, attackerHits: [] });
      expect(page.url()).toBe(`${session.server.origin}/fixtures/login`);
      expect(await page.textContent('.status h2')).toContain('a client-side exception has occurred');
      await page.unrouteAll();
    }
    // The reason is in the console, as the error view says.
    expect(problems.some((text) => text.includes(`${NAVIGATION_REDIRECT_HEADER} refused: http`))).toBe(true);
    await context.close();
  });
});
