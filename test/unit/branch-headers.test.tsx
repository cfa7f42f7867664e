import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { data } from '../../shared/api/answers.ts';
import { defineRoute, layout, type RouteTableEntry } from '../../shared/api/route-definition.ts';
import { isRouteErrorResponse, useRouteError } from '../../shared/api/route-errors.tsx';
import { notFound } from '../../shared/api/status-helpers.ts';
import { asHydrating, buildApp, errorLines } from '../support/build-app.ts';
import { Frame } from '../support/layout-frame.tsx';
import { pageDataOf } from '../support/page-data-scripts.ts';

/**
 * The status and headers of a page in layouts (docs/building-an-app.md#layouts): `data()` in a
 * layout's `load` sets headers and cookies as the page's does, the inner level's header wins,
 * every level's cookie arrives, and the status is the page's. When a boundary shows, only the
 * levels above it count: the level it stands for, and those below, send neither headers nor data.
 * Each test builds its own app, so that what the app works out when it is built meets the code
 * under test.
 */

function Boundary() {
  const error = useRouteError();
  return <p>BOUNDARY {isRouteErrorResponse(error) ? `status ${error.status}` : 'error'}</p>;
}

/** An outer layout and an inner one (with a boundary), both answering with `data()`, around pages that give no headers, their own, or fail. */
function branch(): RouteTableEntry[] {
  return [
    layout(
      {
        default: Frame,
        load: () =>
          data(
            { outer: 'outer-value' },
            {
              status: 202,
              headers: [
                ['X-Outer', 'outer'],
                ['X-Shared', 'from-outer'],
                ['Set-Cookie', 'outer=1; Path=/'],
              ],
            },
          ),
      },
      [
        layout(
          {
            default: Frame,
            load: () =>
              data(
                { inner: 'inner-value' },
                {
                  headers: [
                    ['X-Inner', 'inner'],
                    ['X-Shared', 'from-inner'],
                    ['Set-Cookie', 'inner=1; Path=/'],
                  ],
                },
              ),
            ErrorBoundary: Boundary,
          },
          [
            defineRoute({ path: '/plain', component: () => <p>PLAIN</p>, load: () => ({ plain: true }) }),
            defineRoute({
              path: '/own',
              component: () => <p>OWN</p>,
              load: () =>
                data(
                  { own: true },
                  {
                    headers: [
                      ['X-Shared', 'from-page'],
                      ['Set-Cookie', 'page=1; Path=/'],
                    ],
                  },
                ),
            }),
            defineRoute({ path: '/fails', component: () => <p>FAILS</p>, load: () => notFound() }),
            defineRoute({
              path: '/throws',
              component: () => <p>THROWS</p>,
              load: () => {
                throw new Error('fixture: the page load failed');
              },
            }),
          ],
          { id: 'inner' },
        ),
      ],
      { id: 'outer' },
    ),
  ];
}

describe("headers from a branch's loads", () => {
  test("a layout's headers and cookies reach a page that gives none, the inner layout's header winning; the status stays the page's", async () => {
    const { app } = buildApp(branch());
    const res = await request(app).get('/plain').expect(200);
    expect(res.text).toContain('PLAIN');
    expect(res.headers['x-outer']).toBe('outer');
    expect(res.headers['x-inner']).toBe('inner');
    expect(res.headers['x-shared']).toBe('from-inner');
    expect(res.headers['set-cookie']).toEqual(['outer=1; Path=/', 'inner=1; Path=/']);
  });

  test("the page's header wins over its layouts', and every level's cookie arrives, outermost first", async () => {
    const { app } = buildApp(branch());
    const res = await request(app).get('/own').expect(200);
    expect(res.headers['x-outer']).toBe('outer');
    expect(res.headers['x-inner']).toBe('inner');
    expect(res.headers['x-shared']).toBe('from-page');
    expect(res.headers['set-cookie']).toEqual(['outer=1; Path=/', 'inner=1; Path=/', 'page=1; Path=/']);
  });

  test('a boundary that shows takes the headers, cookies and data of its level and those below it with it: only the levels above it send theirs', async () => {
    const hydrating = asHydrating(branch());
    const { app } = buildApp(hydrating.routes, { assets: hydrating.assets });
    const res = await request(app).get('/fails').expect(404);
    expect(res.text.replaceAll('<!-- -->', '')).toContain('BOUNDARY status 404');
    expect(res.headers['x-outer']).toBe('outer');
    expect(res.headers['x-shared']).toBe('from-outer');
    expect(res.headers['x-inner']).toBeUndefined();
    expect(res.headers['set-cookie']).toEqual(['outer=1; Path=/']);
    expect(pageDataOf(res.text)).toMatchObject({
      layouts: [
        { id: 'outer', data: { outer: 'outer-value' } },
        { id: 'inner', data: undefined },
      ],
    });
    expect(res.text).not.toContain('inner-value');
  });

  test("a server error in the page's load shown by the layout's boundary is a 500 with the outer level's headers only", async () => {
    const { app, logs } = buildApp(branch());
    const res = await request(app).get('/throws').expect(500);
    expect(res.text.replaceAll('<!-- -->', '')).toContain('BOUNDARY error');
    expect(errorLines(logs)).toHaveLength(1);
    expect(res.headers['x-outer']).toBe('outer');
    expect(res.headers['x-inner']).toBeUndefined();
    expect(res.headers['set-cookie']).toEqual(['outer=1; Path=/']);
  });
});
