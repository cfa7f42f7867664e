import { Suspense, use } from 'react';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineRoute, type RouteDefinition } from '../../shared/api/route-definition.ts';
import { notFound, unauthorized } from '../../shared/api/status-helpers.ts';
import { asHydrating, buildApp, errorLines } from '../support/build-app.ts';
import { DESKTOP_CHROME } from '../support/http-client.ts';
import { after } from '../support/settle-after.ts';

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

function Product({ value }: { readonly value: Promise<string> }) {
  return <p>{use(value)}</p>;
}

function pageWith(path: string, outcome: () => string): RouteDefinition {
  return defineRoute<{ readonly product: Promise<string> }>({
    path,
    component: ({ data }) => (
      <main>
        <h1>SHELL-HEADING</h1>
        <Suspense fallback={<p>PRODUCT-FALLBACK</p>}>
          <Product value={data.product} />
        </Suspense>
      </main>
    ),
    load: () => ({ product: after(30, outcome) }),
  });
}

const pages = [pageWith('/gone', () => notFound()), pageWith('/private', () => unauthorized())];

/** The shell itself reads the value (outside any boundary), as a page's heading would. */
function shellReading(path: string, outcome: () => string): RouteDefinition {
  return defineRoute<{ readonly product: Promise<string> }>({
    path,
    component: ({ data }) => <Product value={data.product} />,
    load: () => ({ product: after(20, outcome) }),
  });
}

const shellPages = asHydrating([
  shellReading('/shell-gone', () => notFound()),
  shellReading('/shell-broken', (): string => {
    throw new Error('SHELL-VALUE-FAILED');
  }),
]);

describe('a status helper called in a deferred value, for a crawler', () => {
  test.each([
    ['hydrates', asHydrating(pages)],
    ['ships no JavaScript', { routes: pages, assets: undefined }],
  ])('sets the status of the page that %s: the crawler waits for everything before the head is written', async (_kind, { routes, assets }) => {
    const built = buildApp(routes, { assets });
    const gone = await request(built.app).get('/gone').set('User-Agent', GOOGLEBOT);
    expect(gone.status).toBe(404);
    expect(gone.text).toContain('This page could not be found.');
    expect(gone.text).not.toContain('PRODUCT-FALLBACK');
    expect(gone.text).not.toContain('SHELL-HEADING');
    const hidden = await request(built.app).get('/private').set('User-Agent', GOOGLEBOT);
    expect(hidden.status).toBe(401);
    expect(errorLines(built.logs)).toEqual([]);
  });

  test("a crawler's HEAD gives the status its GET gives, so it too waits for the deferred value", async () => {
    const { routes, assets } = asHydrating(pages);
    const built = buildApp(routes, { assets });
    const head = await request(built.app).head('/gone').set('User-Agent', GOOGLEBOT);
    expect(head.status).toBe(404);
    expect((await request(built.app).head('/private').set('User-Agent', GOOGLEBOT)).status).toBe(401);
    // A browser's HEAD stops at the shell, as its GET's status is the shell's.
    expect((await request(built.app).head('/gone').set('User-Agent', DESKTOP_CHROME)).status).toBe(200);
    expect(errorLines(built.logs)).toEqual([]);
  });

  test('a browser, which has the shell and its status already, still gets 200 and the status view in the boundary', async () => {
    const { routes, assets } = asHydrating(pages);
    const res = await request(buildApp(routes, { assets }).app).get('/gone').set('User-Agent', DESKTOP_CHROME);
    expect(res.status).toBe(200);
    expect(res.text).toContain('SHELL-HEADING');
    expect(res.text).toContain('status:404');
  });
});

describe('a deferred value the shell reads', () => {
  test('calling notFound() ends the page in the 404 page, for browsers and crawlers, with no error line', async () => {
    for (const agent of [DESKTOP_CHROME, GOOGLEBOT]) {
      const built = buildApp(shellPages.routes, { assets: shellPages.assets });
      const res = await request(built.app).get('/shell-gone').set('User-Agent', agent);
      expect(res.status, agent).toBe(404);
      expect(errorLines(built.logs)).toEqual([]);
    }
  });

  test('failing ends the page in the 500 page with the digest of its one error line', async () => {
    const built = buildApp(shellPages.routes, { assets: shellPages.assets });
    const res = await request(built.app).get('/shell-broken').set('User-Agent', DESKTOP_CHROME);
    expect(res.status).toBe(500);
    const [line, ...others] = errorLines(built.logs);
    expect(others).toEqual([]);
    expect(line).toMatchObject({ err: { message: 'SHELL-VALUE-FAILED' } });
    expect(res.text).toContain(`Digest: ${String(line?.digest)}`);
  });
});
