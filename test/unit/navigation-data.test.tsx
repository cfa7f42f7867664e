import { Suspense, use } from 'react';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { asHydrating, buildApp } from '../support/build-app.ts';
import { arrival, close, DESKTOP_CHROME, getTimed, listen } from '../support/http-client.ts';
import { after } from '../support/settle-after.ts';

function Slow({ value }: { readonly value: Promise<string> }) {
  return <p>{use(value)}</p>;
}

const pages = asHydrating([
  defineRoute<{ readonly id: string | undefined; readonly slow: Promise<string> }>({
    path: '/things/:id',
    component: ({ data }) => (
      <Suspense fallback={null}>
        <Slow value={data.slow} />
      </Suspense>
    ),
    load: ({ params }) => ({ id: params.id, slow: after(150, () => `SLOW-${params.id}`) }),
    head: { title: 'Thing' },
  }),
]);
const routes = [...pages.routes, defineRoute({ path: '/server-only', component: () => <p>SERVER-ONLY</p> })];

const NAVIGATION = { 'X-Navigation': 'data', 'X-Navigation-Scope': 'n7', Accept: 'application/x-ndjson, application/json;q=0.9', 'User-Agent': DESKTOP_CHROME };

function lines(body: string): unknown[] {
  return body
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

describe("a page's data for an in-place navigation", () => {
  test('one JSON value a line: the page and head, the data script in the asked scope, then each deferred value as it settles', async () => {
    const { server, origin } = await listen(buildApp(routes, { assets: pages.assets }).app);
    try {
      const res = await getTimed(`${origin}/things/42`, NAVIGATION);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
      expect(res.headers['cache-control']).toBe('private, no-cache, no-store, max-age=0, must-revalidate');
      const [meta, initial, settled, ...rest] = lines(res.body);
      expect(meta).toEqual({
        route: '/things/:id',
        head: expect.objectContaining({ title: 'Thing · React Stream Shell' }),
        assets: { script: '/assets/fixture.js', preloads: [] },
      });
      expect(initial).toEqual(expect.stringContaining('["n7"]'));
      expect(initial).toEqual(expect.stringContaining('"42"'));
      expect(settled).toEqual(expect.stringContaining('SLOW-42'));
      expect(rest).toEqual([]);
      // The data leaves before the deferred value settles, which follows on the same response.
      expect(arrival(res, '"route"')).toBeLessThan(arrival(res, 'SLOW-42') - 100);
      // No document: no markup at all.
      expect(res.body).not.toContain('<html');
    } finally {
      await close(server);
    }
  });

  test('a route without code answers with no data, so the browser loads it in full', async () => {
    const res = await request(buildApp(routes, { assets: pages.assets }).app)
      .get('/server-only')
      .set(NAVIGATION);
    expect(lines(res.text)[0]).toMatchObject({ route: '/server-only', assets: null });
  });

  test("an address no route has answers the 404 as JSON, with the status page's words", async () => {
    const res = await request(buildApp(routes, { assets: pages.assets }).app)
      .get('/no/such/thing')
      .set(NAVIGATION);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 404, message: 'This page could not be found.' });
  });

  test('a scope that is not a plain short name gets the document instead', async () => {
    for (const scope of ['"];alert(1);//', 'a'.repeat(40), '']) {
      const res = await request(buildApp(routes, { assets: pages.assets }).app)
        .get('/things/1')
        .set({ ...NAVIGATION, 'X-Navigation-Scope': scope });
      expect(res.headers['content-type'], scope).toBe('text/html; charset=utf-8');
    }
  });

  test('a scope with the data header empty or another value gets the document', async () => {
    for (const navigation of ['', 'document', 'DATA']) {
      const res = await request(buildApp(routes, { assets: pages.assets }).app)
        .get('/things/1')
        .set({ ...NAVIGATION, 'X-Navigation': navigation });
      expect(res.headers['content-type'], navigation).toBe('text/html; charset=utf-8');
    }
  });
});
