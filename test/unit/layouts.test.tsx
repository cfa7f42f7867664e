import request from 'supertest';
import { describe, expect, test } from 'vitest';
import type { LayoutHead } from '../../shared/api/head.ts';
import { defineRoute, layout, type LayoutModule, type RouteTableEntry } from '../../shared/api/route-definition.ts';
import { Outlet, useLoaderData, useRouteLoaderData } from '../../shared/api/route-hooks.tsx';
import { isRouteErrorResponse, ServerRouteError, useRouteError } from '../../shared/api/route-errors.tsx';
import { notFound } from '../../shared/api/status-helpers.ts';
import { asHydrating, buildApp, errorLines, LEVEL } from '../support/build-app.ts';

function Shell() {
  const { shellLoads } = useLoaderData<() => { shellLoads: number }>();
  return (
    <div id="shell">
      <header>SHELL-HEADER {shellLoads}</header>
      <Outlet />
    </div>
  );
}

function Section() {
  const { sectionLoads } = useLoaderData<() => { sectionLoads: number }>();
  const fromShell = useRouteLoaderData<() => { shellLoads: number }>('shell');
  return (
    <section>
      <p>
        SECTION {sectionLoads} READS SHELL {fromShell?.shellLoads}
      </p>
      <Outlet />
    </section>
  );
}

/** Says what `useRouteError()` gave: a status, or a server error's digest. */
function SectionError() {
  const error = useRouteError();
  const said = isRouteErrorResponse(error) ? `status ${error.status}` : error instanceof ServerRouteError ? `digest ${error.digest}` : 'unknown';
  return <p>SECTION-BOUNDARY {said}</p>;
}

/** A shell around a section around one page, counting each level's loads and noting their order, so a test can tell which ran and when. */
function counting() {
  const counts = { shell: 0, section: 0, page: 0 };
  const order: string[] = [];

  const shell: LayoutModule<{ readonly shellLoads: number }> = {
    default: Shell,
    // Settles a few turns later: a load below that started at once would be noted first.
    load: async () => {
      order.push('shell started');
      await new Promise((resolve) => setTimeout(resolve, 5));
      counts.shell += 1;
      order.push('shell returned');
      return { shellLoads: counts.shell };
    },
    head: { description: 'Shell description.', titleTemplate: '%s · Shell' } satisfies LayoutHead,
  };

  const section: LayoutModule<{ readonly sectionLoads: number }> = {
    default: Section,
    load: () => {
      order.push('section');
      counts.section += 1;
      return { sectionLoads: counts.section };
    },
    head: { titleTemplate: '%s · Section' },
    ErrorBoundary: SectionError,
  };

  const table: RouteTableEntry[] = [
    layout(
      shell,
      [
        layout(
          section,
          [
            defineRoute({
              path: '/in/:name',
              head: { title: 'Inner' },
              component: ({ data, params }) => <main>{`PAGE ${String(data)} ${params.name}`}</main>,
              action: () => ({ posted: true }),
              load: ({ params }) => {
                order.push('page');
                counts.page += 1;
                if (params.name === 'missing') notFound();
                if (params.name === 'broken') throw new Error('fixture: the page load failed');
                return `loaded-${params.name}`;
              },
            }),
          ],
          { id: 'section' },
        ),
      ],
      { id: 'shell' },
    ),
  ];
  return { table, counts, order };
}

function ThrowsInRender(): never {
  throw new Error('fixture: the page render failed');
}

function NotFoundInRender(): never {
  notFound();
}

/** The same section, around pages that fail while rendering rather than loading. */
const renderFailures: RouteTableEntry[] = [
  layout(
    { default: Shell, load: () => ({ shellLoads: 0 }) },
    [
      layout(
        { default: Section, load: () => ({ sectionLoads: 0 }), ErrorBoundary: SectionError },
        [defineRoute({ path: '/render/throws', component: ThrowsInRender }), defineRoute({ path: '/render/not-found', component: NotFoundInRender })],
        { id: 'section' },
      ),
      defineRoute({ path: '/render/outside', component: ThrowsInRender }),
    ],
    { id: 'shell' },
  ),
];

const NAVIGATION = { 'X-Navigation': 'data', 'X-Navigation-Scope': 'n3', Accept: 'application/x-ndjson' };

describe('layouts', () => {
  test('a route table with a layout around no route, or two layouts of one id, is refused as the app is built, naming the id', () => {
    const empty = [layout({ default: Shell }, [], { id: 'frame' }), defineRoute({ path: '/x', component: ThrowsInRender })];
    expect(() => buildApp(empty)).toThrow('Layout id "frame": its list of routes is empty, so it frames nothing');
    const twice = [
      layout({ default: Shell }, [defineRoute({ path: '/a', component: ThrowsInRender })], { id: 'frame' }),
      layout({ default: Shell }, [defineRoute({ path: '/b', component: ThrowsInRender })], { id: 'frame' }),
    ];
    expect(() => buildApp(twice)).toThrow('Layout id "frame": layout ids are unique');
  });

  test('render around the page, outermost first, each from its own load, run from the outside in: each starts once the one above it has returned', async () => {
    const { table, counts, order } = counting();
    const { app } = buildApp(table);
    const res = await request(app).get('/in/a').expect(200);
    const text = res.text.replaceAll('<!-- -->', '');
    const shell = text.indexOf('SHELL-HEADER 1');
    const section = text.indexOf('SECTION 1 READS SHELL 1');
    const page = text.indexOf('PAGE loaded-a a');
    expect(shell).toBeGreaterThan(-1);
    expect(section).toBeGreaterThan(shell);
    expect(page).toBeGreaterThan(section);
    expect(counts).toEqual({ shell: 1, section: 1, page: 1 });
    expect(order).toEqual(['shell started', 'shell returned', 'section', 'page']);
  });

  test("merge their head defaults with the page's: the innermost title template, the outer description", async () => {
    const { table } = counting();
    const { app } = buildApp(table, { site: { name: 'Site' } });
    const res = await request(app).get('/in/a').expect(200);
    expect(res.text).toContain('<title>Inner · Section · Site</title>');
    expect(res.text).toContain('<meta name="description" content="Shell description."/>');
  });

  test('a navigation that names the layouts it keeps gets no data for them, yet their loads run, in order, since a load may be a guard', async () => {
    const { table, counts, order } = counting();
    const pages = asHydrating(table);
    const { app } = buildApp(pages.routes, { assets: pages.assets });
    const full = await request(app).get('/in/a').set(NAVIGATION).expect(200);
    expect(counts).toEqual({ shell: 1, section: 1, page: 1 });
    expect(full.text).toContain('id:\\"shell\\",data:');
    expect(full.text).not.toContain('kept');

    order.length = 0;
    const kept = await request(app).get('/in/b').set(NAVIGATION).set('X-Navigation-Keep', 'shell,section,unknown').expect(200);
    expect(counts).toEqual({ shell: 2, section: 2, page: 2 });
    expect(order).toEqual(['shell started', 'shell returned', 'section', 'page']);
    expect(kept.text.match(/kept/g)).toHaveLength(2);
    expect(kept.text).not.toContain('shellLoads');
    expect(kept.text).toContain('loaded-b');
  });

  test.each([
    ['no navigation header', {}],
    ['a navigation header with a scope that is no scope', { 'X-Navigation': 'data', 'X-Navigation-Scope': 'not a scope!' }],
  ])('a document carries every layout whatever the request asks to keep (%s): 200, every load run, no error', async (_case, headers) => {
    const { table, counts } = counting();
    const pages = asHydrating(table);
    const { app, logs } = buildApp(pages.routes, { assets: pages.assets });
    // Before, the kept layouts rendered without their data: a 500 and an error line for one header.
    const res = await request(app).get('/in/a').set(headers).set('X-Navigation-Keep', 'shell,section').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(counts).toEqual({ shell: 1, section: 1, page: 1 });
    expect(res.text).toContain('SHELL-HEADER');
    expect(res.text).not.toContain('kept');
    expect(errorLines(logs)).toEqual([]);
  });

  test('after a post every level loads again, whatever the browser asked to keep, so what the action changed shows everywhere', async () => {
    const { table, counts } = counting();
    const pages = asHydrating(table);
    const { app } = buildApp(pages.routes, { assets: pages.assets });
    const posted = await request(app)
      .post('/in/a')
      .set(NAVIGATION)
      .set('X-Navigation-Keep', 'shell,section')
      .set('Sec-Fetch-Site', 'same-origin')
      .type('form')
      .send({ name: 'x' })
      .expect(200);
    // The layouts' loads ran before the action, as guards, and again with the page after it.
    expect(counts).toEqual({ shell: 2, section: 2, page: 1 });
    expect(posted.text).not.toContain('kept');
    expect(posted.text).toContain('posted:!0');
  });

  test('a page whose load fails shows the nearest ErrorBoundary inside the layouts above it, with the 500 status and one error line carrying its digest', async () => {
    const { table } = counting();
    const { app, logs } = buildApp(table);
    const res = await request(app).get('/in/broken').expect(500);
    expect(res.text).toContain('SHELL-HEADER');
    expect(res.text).toContain('SECTION-BOUNDARY');
    expect(res.text).not.toContain('PAGE ');
    const errors = errorLines(logs);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.err).toMatchObject({ message: 'fixture: the page load failed' });
    expect(errors[0]?.route).toBe('/in/:name');
    expect(res.text.replaceAll('<!-- -->', '')).toContain(`SECTION-BOUNDARY digest ${String(errors[0]?.digest)}`);
    const completion = logs.find((line) => line.msg === 'request completed');
    expect(completion).toMatchObject({ level: LEVEL.info, status: 500 });
  });

  test('without a boundary in the branch, a failed load is the status page, as before', async () => {
    const { app, logs } = buildApp([layout({ default: () => <Outlet /> }, [defineRoute({ path: '/bare', component: () => null, load: () => notFound() })], { id: 'bare-layout' })]);
    const res = await request(app).get('/bare').expect(404);
    expect(res.text).toContain('<h1>404</h1>');
    expect(errorLines(logs)).toEqual([]);
  });

  test("a status helper in a page's load shows the boundary with that status, and no error line", async () => {
    const { table } = counting();
    const { app, logs } = buildApp(table);
    const res = await request(app).get('/in/missing').expect(404);
    expect(res.text.replaceAll('<!-- -->', '')).toContain('SECTION-BOUNDARY status 404');
    expect(res.text).toContain('<meta name="robots" content="noindex"/>');
    expect(res.text).toContain('<title>404: This page could not be found. · Section · React Stream Shell</title>');
    expect(errorLines(logs)).toEqual([]);
  });

  test('a page that throws while rendering shows the nearest ErrorBoundary inside the layouts, with 500 and the digest of its one error line', async () => {
    const hydrating = asHydrating(renderFailures);
    const { app, logs } = buildApp(hydrating.routes, { assets: hydrating.assets });
    const res = await request(app).get('/render/throws').expect(500);
    const text = res.text.replaceAll('<!-- -->', '');
    expect(text).toContain('SHELL-HEADER 0');
    const errors = errorLines(logs);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.err).toMatchObject({ message: 'fixture: the page render failed' });
    expect(text).toContain(`SECTION-BOUNDARY digest ${String(errors[0]?.digest)}`);
    // The browser hydrates the boundary from the data: the failure travels with the digest, not the error.
    expect(text).toContain(`digest:"${String(errors[0]?.digest)}"`.replaceAll('\\', ''));
    expect(text).not.toContain('fixture: the page render failed');
  });

  test('a status helper called while rendering shows the boundary with its status and no error line', async () => {
    const { app, logs } = buildApp(renderFailures);
    const res = await request(app).get('/render/not-found').expect(404);
    expect(res.text.replaceAll('<!-- -->', '')).toContain('SECTION-BOUNDARY status 404');
    expect(errorLines(logs)).toEqual([]);
  });

  test('a render that fails above every boundary is the status page, as before', async () => {
    const { app, logs } = buildApp(renderFailures);
    const res = await request(app).get('/render/outside').expect(500);
    expect(res.text).not.toContain('SHELL-HEADER');
    expect(res.text).toContain(`Digest: ${String(errorLines(logs)[0]?.digest)}`);
  });
});
