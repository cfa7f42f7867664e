import { Suspense, use } from 'react';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineRoute, layout, type RouteTableEntry } from '../../shared/api/route-definition.ts';
import { Outlet } from '../../shared/api/route-hooks.tsx';
import { buildApp, LEVEL, type LogLine } from '../support/build-app.ts';
import { Frame } from '../support/layout-frame.tsx';
import { after } from '../support/settle-after.ts';

/** A layout that forgot its outlet: the page inside it never shows. */
function Forgetful() {
  return <header>NO OUTLET HERE</header>;
}

/** A layout that shows its outlet only when its data says so (a sign-in form in the page's place). */
function Gate({ data }: { data: { open: boolean } }) {
  return data.open ? <Outlet /> : <p>SIGN IN FIRST</p>;
}

/** Renders its outlet once its deferred value has come: a render stopped before then never reaches the page. */
function Patient({ data }: { data: { later: Promise<string> } }) {
  return (
    <Suspense fallback={<p>WAITING</p>}>
      <Later value={data.later} />
    </Suspense>
  );
}

function Later({ value }: { value: Promise<string> }) {
  use(value);
  return <Outlet />;
}

const table: RouteTableEntry[] = [
  layout({ default: Patient, load: () => ({ later: after(150, () => 'ready') }) }, [defineRoute({ path: '/patient', component: () => <p>THE PATIENT PAGE</p> })], {
    id: 'patient',
  }),
  layout({ default: Forgetful }, [defineRoute({ path: '/lost', component: () => <p>THE LOST PAGE</p> })], { id: 'forgetful' }),
  layout(
    { default: Frame },
    [
      layout({ default: Forgetful }, [defineRoute({ path: '/deep', component: () => <p>THE DEEP PAGE</p> })], { id: 'inner' }),
      defineRoute({ path: '/found', component: () => <p>THE FOUND PAGE</p> }),
    ],
    { id: 'outer' },
  ),
  layout(
    { default: Gate, load: ({ request: req }) => ({ open: new URL(req.url).searchParams.has('open') }) },
    [defineRoute({ path: '/gated', component: () => <p>BEHIND THE GATE</p> })],
    {
      id: 'gate',
    },
  ),
];

function outletWarnings(logs: readonly LogLine[]): LogLine[] {
  return logs.filter((line) => line.level === LEVEL.warn && String(line.msg).includes('<Outlet />'));
}

describe('a layout that renders no <Outlet /> is named in development', () => {
  test('the page is missing, and one warn line names the route, the layout and what is missing', async () => {
    const { app, logs } = buildApp(table, { development: true });
    const res = await request(app).get('/lost').expect(200);
    expect(res.text).toContain('NO OUTLET HERE');
    expect(res.text).not.toContain('THE LOST PAGE');
    expect(outletWarnings(logs)).toEqual([
      expect.objectContaining({ route: '/lost', layout: 'forgetful', missing: '/lost', msg: 'layout rendered no <Outlet />: what is inside it is not on the page' }),
    ]);
  });

  test('in nested layouts it names the inner one, whose outer layout did render its outlet', async () => {
    const { app, logs } = buildApp(table, { development: true });
    const res = await request(app).get('/deep').expect(200);
    expect(res.text).toContain('FRAME');
    expect(res.text).not.toContain('THE DEEP PAGE');
    expect(outletWarnings(logs)).toEqual([expect.objectContaining({ route: '/deep', layout: 'inner', missing: '/deep' })]);
  });

  test('a layout that renders its outlet, or shows it only when its data says so, is not named when it does', async () => {
    const { app, logs } = buildApp(table, { development: true });
    expect((await request(app).get('/found').expect(200)).text).toContain('THE FOUND PAGE');
    expect((await request(app).get('/gated?open').expect(200)).text).toContain('BEHIND THE GATE');
    expect(outletWarnings(logs)).toEqual([]);
    // Closed, the gate is a layout without its outlet: a hint in development, by design.
    expect((await request(app).get('/gated').expect(200)).text).toContain('SIGN IN FIRST');
    expect(outletWarnings(logs)).toEqual([expect.objectContaining({ route: '/gated', layout: 'gate' })]);
  });

  test('a render stopped before it reached the page (HEAD, the render timeout) names no layout', async () => {
    const { app, logs } = buildApp(table, { development: true });
    expect((await request(app).get('/patient').expect(200)).text).toContain('THE PATIENT PAGE');
    await request(app).head('/patient').expect(200);
    const timed = buildApp(table, { development: true, pages: { renderTimeoutMs: 50 } });
    await request(timed.app).get('/patient').expect(200);
    expect(timed.logs.some((line) => line.msg === 'render timed out')).toBe(true);
    expect([...outletWarnings(logs), ...outletWarnings(timed.logs)]).toEqual([]);
  });

  test('production neither checks nor warns, and the checked render sends the same HTML', async () => {
    const production = buildApp(table);
    await request(production.app).get('/lost').expect(200);
    expect(outletWarnings(production.logs)).toEqual([]);
    const development = buildApp(table, { development: true });
    const root = (html: string) => html.slice(html.indexOf('<div id="root">'), html.indexOf('</body>'));
    for (const path of ['/found', '/deep']) {
      const [plain, checked] = await Promise.all([request(production.app).get(path), request(development.app).get(path)]);
      expect(root(plain.text)).toMatch(/^<div id="root"><div>FRAME .+<\/div>$/);
      expect(root(checked.text)).toBe(root(plain.text));
    }
  });
});
