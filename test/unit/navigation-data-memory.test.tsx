import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { NAVIGATION_HEADER, NAVIGATION_SCOPE_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { data } from '../../shared/api/answers.ts';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { createCookieSessionStorage } from '../../server/sessions/cookie-session.ts';
import { asHydrating, buildApp } from '../support/build-app.ts';
import { navigationLines } from '../support/navigation-data-lines.ts';

/**
 * The meta line of a page's navigation data says `keep` when back and forward may show the page
 * again from the browser's memory (docs/navigation.md#back-and-forward): only for an answer a
 * shared cache could give anyone without asking the server first.
 */

const sessions = createCookieSessionStorage<{ readonly name: string }>({ cookie: { name: '__memory_test', secrets: ['memory test secret, thirty-two characters'] } });

/** A page answering with `Cache-Control: cacheControl`, or the default without. */
function appAnswering(cacheControl: string | undefined) {
  const { routes, assets } = asHydrating([
    defineRoute({
      path: '/page',
      component: () => <main>PAGE</main>,
      load: () => (cacheControl === undefined ? { at: 1 } : data({ at: 1 }, { headers: { 'Cache-Control': cacheControl } })),
    }),
  ]);
  return buildApp(routes, { assets }).app;
}

const NAVIGATION = { [NAVIGATION_HEADER]: 'data', [NAVIGATION_SCOPE_HEADER]: 'n1', Accept: 'application/x-ndjson' };

async function metaLine(cacheControl: string | undefined, cookie?: string): Promise<{ readonly meta: unknown; readonly cacheControl: string | undefined }> {
  const res = await request(appAnswering(cacheControl))
    .get('/page')
    .set({ ...NAVIGATION, ...(cookie === undefined ? {} : { Cookie: cookie }) })
    .expect(200);
  return { meta: navigationLines(res.text)[0], cacheControl: res.headers['cache-control'] };
}

describe("the navigation data's word on the router's memory", () => {
  test.each([
    ['public, max-age=60', true],
    ['s-maxage=600', true],
    ['max-age=60', true],
    ['PUBLIC, Max-Age=60', true],
    ['public, max-age=60, immutable', true],
    ['public, no-cache', false],
    ['public, no-cache="Set-Cookie"', false],
    ['public, no-store', false],
    ['private, max-age=60', false],
    ['public, private, max-age=60', false],
    ['no-cache', false],
    ['max-age=0, must-revalidate', false],
  ])('Cache-Control: %s → keep %s', async (given, kept) => {
    const { meta, cacheControl } = await metaLine(given);
    expect(cacheControl).toBe(given);
    if (kept) expect(meta).toMatchObject({ route: '/page', keep: true });
    else {
      expect(meta).toMatchObject({ route: '/page' });
      expect(meta).not.toHaveProperty('keep');
    }
  });

  test("a page's default answer (private, no-store) is never kept", async () => {
    const { meta, cacheControl } = await metaLine(undefined);
    expect(cacheControl).toBe('private, no-cache, no-store, max-age=0, must-revalidate');
    expect(meta).not.toHaveProperty('keep');
  });

  test('a public page asked for with a session cookie is one visitor’s: private, and not kept', async () => {
    const session = await sessions.getSession(undefined);
    session.set('name', 'Ada');
    const cookie = (await sessions.commitSession(session)).split(';')[0] ?? '';
    const { meta, cacheControl } = await metaLine('public, max-age=60', cookie);
    expect(cacheControl).toMatch(/^private\b/);
    expect(meta).not.toHaveProperty('keep');
    // The same page without the cookie is kept: the cookie made the difference.
    expect((await metaLine('public, max-age=60')).meta).toHaveProperty('keep', true);
  });
});
