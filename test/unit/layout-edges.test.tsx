import request from 'supertest';
import { describe, expect, test } from 'vitest';
import type { LayoutHead } from '../../shared/api/head.ts';
import { HttpError } from '../../shared/api/http-error.ts';
import { redirect } from '../../shared/api/answers.ts';
import { defineRoute, layout, type LayoutModule, type RouteTableEntry } from '../../shared/api/route-definition.ts';
import { isRouteErrorResponse, ServerRouteError, useRouteError } from '../../shared/api/route-errors.tsx';
import { asHydrating, buildApp, errorLines } from '../support/build-app.ts';
import { Frame } from '../support/layout-frame.tsx';

/** Says what `useRouteError()` gave, with a server error's message (development only). */
function Boundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) return <p>BOUNDARY status {error.status}</p>;
  return <p>BOUNDARY {error instanceof ServerRouteError ? `message ${error.message}` : 'unknown'}</p>;
}

function headOf(html: string): { title: string | undefined; meta: Record<string, string> } {
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1];
  const meta = Object.fromEntries([...html.matchAll(/<meta (?:name|property)="([^"]+)" content="([^"]*)"\/>/g)].map((match) => [match[1] ?? '', match[2] ?? '']));
  return { title, meta };
}

describe('head defaults from layouts', () => {
  const outer: LayoutModule = {
    default: Frame,
    head: {
      titleTemplate: '%s · Outer',
      title: 'Outer default',
      description: 'Outer.',
      robots: 'noarchive',
      openGraph: { image: 'https://example.com/outer.png' },
    } satisfies LayoutHead,
  };
  const inner: LayoutModule = { default: Frame, head: { titleTemplate: '%s · Inner', description: 'Inner.', openGraph: { type: 'article' } } };
  const table: RouteTableEntry[] = [
    layout(
      outer,
      [
        layout(
          inner,
          [
            defineRoute({
              path: '/own',
              component: () => null,
              head: { title: 'Own', description: 'Own.', robots: 'noindex', openGraph: { image: 'https://example.com/own.png' } },
            }),
            defineRoute({ path: '/untitled', component: () => null, head: { title: '' } }),
          ],
          { id: 'inner' },
        ),
        defineRoute({ path: '/outer-only', component: () => null }),
      ],
      { id: 'outer' },
    ),
  ];
  // Built in each test: a head that depends on neither data nor path is worked out when the app is built.
  const site = { site: { name: 'Site' } };

  test("the page's own fields win, and its title goes into the innermost template", async () => {
    const { app } = buildApp(table, site);
    const { title, meta } = headOf((await request(app).get('/own').expect(200)).text);
    expect(title).toBe('Own · Inner · Site');
    expect(meta).toMatchObject({ description: 'Own.', robots: 'noindex', 'og:image': 'https://example.com/own.png', 'og:type': 'article', 'og:title': 'Own · Inner' });
  });

  test('a field the page leaves out comes from the innermost layout that gives it; an empty title takes the default title, untemplated', async () => {
    const { app } = buildApp(table, site);
    const { title, meta } = headOf((await request(app).get('/untitled').expect(200)).text);
    expect(title).toBe('Outer default · Site');
    expect(meta).toMatchObject({ description: 'Inner.', robots: 'noarchive', 'og:image': 'https://example.com/outer.png', 'og:type': 'article' });
  });

  test("outside the inner layout, only the outer layout's defaults apply", async () => {
    const { app } = buildApp(table, site);
    const { title, meta } = headOf((await request(app).get('/outer-only').expect(200)).text);
    expect(title).toBe('Outer default · Site');
    expect(meta).toMatchObject({ description: 'Outer.', 'og:type': 'website' });
  });
});

describe('which boundary shows a failed load', () => {
  const inLayoutsApp = (getLoadContext: () => object) => buildApp(table, { getLoadContext }).app;
  const counts = { outer: 0, inner: 0 };
  const table: RouteTableEntry[] = [
    layout(
      {
        default: Frame,
        load: () => {
          counts.outer += 1;
          return {};
        },
      },
      [
        layout(
          {
            default: Frame,
            load: ({ searchParams }) => {
              counts.inner += 1;
              if (searchParams.has('fail-inner')) throw new Error('fixture: the inner layout failed');
              return {};
            },
          },
          [
            defineRoute({
              path: '/page',
              component: () => <p>PAGE</p>,
              ErrorBoundary: Boundary,
              load: ({ searchParams }) => {
                if (searchParams.has('redirect')) redirect('/elsewhere');
                if (searchParams.has('fail')) throw new Error('fixture: the page load failed');
                // Not a status helper: a server error, whatever status it carries.
                if (searchParams.has('http-500')) throw new HttpError(500, 'fixture: an HttpError of 500');
                return {};
              },
            }),
          ],
          { id: 'inner' },
        ),
      ],
      { id: 'outer' },
    ),
  ];

  test("a layout's failure is never shown by a boundary of the page below it: the status page answers", async () => {
    const { app, logs } = buildApp(table);
    const res = await request(app).get('/page?fail-inner').expect(500);
    expect(res.text).not.toContain('BOUNDARY');
    expect(res.text).toContain(`Digest: ${String(errorLines(logs)[0]?.digest)}`);
  });

  test("a client that prefers JSON gets the status answer's JSON, not the boundary's HTML: 500, the digest of the one error line", async () => {
    const { app, logs } = buildApp(table);
    const res = await request(app).get('/page?fail').set('Accept', 'application/json').expect(500);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const [line] = errorLines(logs);
    expect(errorLines(logs)).toHaveLength(1);
    expect(res.body).toEqual({ status: 500, message: 'Internal Server Error.', digest: line?.digest });
    // A browser's document keeps the boundary.
    expect((await request(app).get('/page?fail').set('Accept', 'text/html,application/json;q=0.9').expect(500)).text).toContain('BOUNDARY');
  });

  test('an HttpError of 500 or more is a server error for the boundary too: 500, one error line, its digest', async () => {
    const { app, logs } = buildApp(table);
    const res = await request(app).get('/page?http-500').expect(500);
    expect(errorLines(logs)).toHaveLength(1);
    expect(res.text.replaceAll('<!-- -->', '')).toContain('BOUNDARY message The server could not load this part of the page.');
  });

  test('a redirect from a load under a boundary still redirects', async () => {
    const { app } = buildApp(table);
    const res = await request(app).get('/page?redirect').expect(302);
    expect(res.headers.location).toBe('/elsewhere');
  });

  test("in development the boundary's error carries the message; in production only the digest", async () => {
    const dev = buildApp(table, { development: true });
    expect((await request(dev.app).get('/page?fail').expect(500)).text.replaceAll('<!-- -->', '')).toContain('BOUNDARY message fixture: the page load failed');
    const prod = buildApp(table);
    const text = (await request(prod.app).get('/page?fail').expect(500)).text;
    expect(text).not.toContain('fixture: the page load failed');
    expect(text.replaceAll('<!-- -->', '')).toContain('BOUNDARY message The server could not load this part of the page.');
  });

  test('a navigation keeps only the layouts it names: theirs is the one data left out, though every load runs', async () => {
    const hydrating = asHydrating(table);
    const { app } = buildApp(hydrating.routes, { assets: hydrating.assets });
    counts.outer = 0;
    counts.inner = 0;
    const res = await request(app).get('/page').set({ 'X-Navigation': 'data', 'X-Navigation-Scope': 'n1', 'X-Navigation-Keep': 'outer' }).expect(200);
    expect(counts).toEqual({ outer: 1, inner: 1 });
    expect(res.text).toContain('id:\\"outer\\",kept:!0');
    expect(res.text).toContain('id:\\"inner\\",data:');
  });

  test("a failure of the app's getLoadContext is no route's: the status page answers, with or without layouts", async () => {
    const failing = () => Promise.reject(new Error('fixture: the app context failed'));
    const flat = buildApp([defineRoute({ path: '/flat', component: () => <p>PAGE</p>, ErrorBoundary: Boundary, load: () => ({}) })], { getLoadContext: failing });
    const flatAnswer = await request(flat.app).get('/flat').expect(500);
    expect(flatAnswer.text).not.toContain('BOUNDARY');
    expect(flatAnswer.text).toContain(`Digest: ${String(errorLines(flat.logs)[0]?.digest)}`);
    const inLayouts = buildApp(table, { getLoadContext: failing });
    const layoutAnswer = await request(inLayouts.app).get('/page').expect(500);
    expect(layoutAnswer.text).not.toContain('BOUNDARY');
    expect(errorLines(inLayouts.logs)).toHaveLength(1);
  });

  test('a getLoadContext that outlasts the render timeout: the 500 page, and no load starts after it', async () => {
    let loads = 0;
    const counted = () => {
      loads += 1;
      return {};
    };
    // Settles after the timeout has answered: the loads it would have let start must not.
    let settle: (() => void) | undefined;
    const late = () =>
      new Promise<object>((resolve) => {
        settle = () => resolve({});
      });
    const { app, logs } = buildApp([defineRoute({ path: '/slow-context', component: () => <p>PAGE</p>, load: counted })], { getLoadContext: late, pages: { renderTimeoutMs: 50 } });
    const answer = await request(app).get('/slow-context').expect(500);
    expect(answer.text).toContain(`Digest: ${String(errorLines(logs)[0]?.digest)}`);
    settle?.();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(loads).toBe(0);
  });

  test('a page with nothing to load, and no layout, asks the app for no context', async () => {
    let made = 0;
    const counting = () => {
      made += 1;
      return {};
    };
    const { app } = buildApp([defineRoute({ path: '/still', component: () => <p>STILL</p> })], { getLoadContext: counting });
    await request(app).get('/still').expect(200);
    expect(made).toBe(0);
    await request(inLayoutsApp(counting)).get('/page').expect(200);
    expect(made).toBe(1);
  });
});
