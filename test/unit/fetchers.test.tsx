import { createContext, runInContext } from 'node:vm';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { invalid, redirect } from '../../shared/api/action-helpers.ts';
import { NAVIGATION_FETCHER_HEADER, NAVIGATION_HEADER, NAVIGATION_REDIRECT_HEADER, NAVIGATION_SCOPE_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { data } from '../../shared/api/answers.ts';
import { defineRoute, layout, type ActionContext, type LayoutModule, type RouteTableEntry } from '../../shared/api/route-definition.ts';
import { asHydrating, buildApp, errorLines, type TestApp } from '../support/build-app.ts';
import { navigationLines } from '../support/navigation-data-lines.ts';

/**
 * A fetcher's post (shared/api/fetcher.tsx) on the wire: the navigation data path answers it with the
 * action's result alone, as data lines, without running the page's load (its layouts' run once,
 * before the action, as guards: docs/security.md#guards); the
 * statuses of a refused post stay those of any post (docs/building-an-app.md#fetchers).
 */

const SCOPE = 'f3';
const ACCEPT = 'application/x-ndjson, application/json;q=0.9';
/** What the browser's runtime sends with a fetcher's post. */
const FETCHER = { [NAVIGATION_HEADER]: 'data', [NAVIGATION_SCOPE_HEADER]: SCOPE, [NAVIGATION_FETCHER_HEADER]: '1', Accept: ACCEPT };
/** What it sends with a form's post that navigates. */
const NAVIGATION = { [NAVIGATION_HEADER]: 'data', [NAVIGATION_SCOPE_HEADER]: SCOPE, Accept: ACCEPT };

interface Guests extends TestApp {
  readonly names: string[];
  /** How many times each load ran. */
  readonly loads: { shell: number; page: number };
}

/** A guest list inside a layout: the action adds a name, or answers 422 for an empty one, or redirects. */
function guests(): Guests {
  const names: string[] = [];
  const loads = { shell: 0, page: 0 };
  const shell: LayoutModule<{ readonly shellLoads: number }> = {
    default: () => <div>SHELL</div>,
    load: () => {
      loads.shell += 1;
      return { shellLoads: loads.shell };
    },
  };
  const table: RouteTableEntry[] = [
    layout(
      shell,
      [
        defineRoute({
          path: '/guests',
          component: () => <h1>Guests</h1>,
          load: () => {
            loads.page += 1;
            return { names: [...names] };
          },
          action: ({ body }: ActionContext) => {
            const name = typeof body.name === 'string' ? body.name.trim() : '';
            if (name === '') return invalid({ name: 'Enter a name.' }, { name });
            if (name === 'away') redirect('/guests?left');
            if (name === 'flash') return data({ flashed: true }, { headers: { 'Set-Cookie': 'flash=1; Path=/' } });
            names.push(name);
            return data({ added: name, at: new Date(Date.UTC(2026, 10, 25)) }, { headers: { 'X-Guests': String(names.length) } });
          },
        }),
      ],
      { id: 'shell' },
    ),
    defineRoute({ path: '/read-only', component: () => <h1>Read only</h1> }),
  ];
  const { routes, assets } = asHydrating(table);
  return { ...buildApp(routes, { assets }), names, loads };
}

/** Runs every script line of a data answer in a fresh context, as the browser's runtime does, and returns the value built in `scope`. */
function answerValue(body: string, scope: string): unknown {
  const context = createContext({ URL, addEventListener: () => undefined });
  runInContext('var self = globalThis;', context);
  for (const line of navigationLines(body)) if (typeof line === 'string') runInContext(line, context);
  const values: unknown = Reflect.get(runInContext('self.$R', context), scope);
  return Array.isArray(values) ? values[0] : undefined;
}

function post(app: TestApp['app'], path: string, fields: Record<string, string>, headers: Record<string, string>): request.Test {
  return request(app).post(path).set(headers).type('form').send(fields);
}

describe("a fetcher's post", () => {
  test("is answered with the action's result alone, as data lines: its status, its headers, a Date intact, and no page load ran", async () => {
    const { app, names, loads, logs } = guests();
    const res = await post(app, '/guests', { name: 'Ada' }, { ...FETCHER, 'Sec-Fetch-Site': 'same-origin' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['x-guests']).toBe('1');
    expect(names).toEqual(['Ada']);
    // Every line is a script: no page, no head, no layouts.
    const lines = navigationLines(res.text);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => typeof line === 'string')).toBe(true);
    const value = answerValue(res.text, SCOPE);
    expect(JSON.stringify(value)).toBe(JSON.stringify({ actionData: { added: 'Ada', at: '2026-11-25T00:00:00.000Z' } }));
    // The Date was rebuilt as a Date (of the context that ran the scripts), not a string.
    const at: unknown = Reflect.get(Reflect.get(Object(value), 'actionData'), 'at');
    expect(Object.prototype.toString.call(at)).toBe('[object Date]');
    // The layout's load ran once, as the action's guard; its data is not in the answer.
    expect(loads).toEqual({ shell: 1, page: 0 });
    expect(errorLines(logs)).toEqual([]);
  });

  test("carries the action's cookies", async () => {
    const { app } = guests();
    const res = await post(app, '/guests', { name: 'flash' }, { ...FETCHER, 'Sec-Fetch-Site': 'same-origin' });
    expect(res.status).toBe(200);
    expect(answerValue(res.text, SCOPE)).toEqual({ actionData: { flashed: true } });
    expect(res.headers['set-cookie'] ?? []).toContain('flash=1; Path=/');
  });

  test("whose submission does not hold is answered 422 with invalid()'s { errors, values }, and no page load ran", async () => {
    const { app, names, loads } = guests();
    const res = await post(app, '/guests', { name: '  ' }, { ...FETCHER, 'Sec-Fetch-Site': 'same-origin' });
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(answerValue(res.text, SCOPE)).toEqual({ actionData: { errors: { name: 'Enter a name.' }, values: { name: '' } } });
    expect(names).toEqual([]);
    expect(loads).toEqual({ shell: 1, page: 0 });
  });

  test('that another site made is refused with the 403 status as JSON, before the action runs', async () => {
    const { app, names, loads, logs } = guests();
    const res = await post(app, '/guests', { name: 'Mallory' }, { ...FETCHER, 'Sec-Fetch-Site': 'cross-site' });
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ status: 403, message: expect.any(String) });
    expect(names).toEqual([]);
    expect(loads).toEqual({ shell: 0, page: 0 });
    expect(logs.some((line) => line.msg === 'csrf refused' && line.reason === 'cross-site')).toBe(true);
  });

  test('keeps the statuses of any post: 405 without an action, 415 for another body type, 204 with the path for a redirect', async () => {
    const { app, loads } = guests();
    const same = { ...FETCHER, 'Sec-Fetch-Site': 'same-origin' };
    const noAction = await post(app, '/read-only', { name: 'Ada' }, same);
    expect(noAction.status).toBe(405);
    expect(noAction.headers.allow).toBe('GET, HEAD');
    const text = await request(app).post('/guests').set(same).set('Content-Type', 'text/plain').send('name=Ada');
    expect(text.status).toBe(415);
    const away = await post(app, '/guests', { name: 'away' }, same);
    expect(away.status).toBe(204);
    expect(away.headers[NAVIGATION_REDIRECT_HEADER]).toBe('/guests?left');
    // Only the post that reached its action ran the layout's guard.
    expect(loads).toEqual({ shell: 1, page: 0 });
  });
});

describe("a fetcher's post whose result holds a value that never settles", () => {
  test('ends at the render timeout, the value rejected with the digest of the one warn line', async () => {
    const table = asHydrating([defineRoute({ path: '/held', component: () => <h1>Held</h1>, action: () => ({ saved: true, receipt: new Promise<string>(() => undefined) }) })]);
    const { app, logs } = buildApp(table.routes, { assets: table.assets, pages: { renderTimeoutMs: 300 } });
    const started = performance.now();
    const res = await post(app, '/held', {}, { ...FETCHER, 'Sec-Fetch-Site': 'same-origin' });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(res.status).toBe(200);
    const timedOut = logs.filter((line) => line.msg === 'render timed out');
    expect(timedOut).toHaveLength(1);
    const lines = navigationLines(res.text);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(String(timedOut[0]?.digest));
    expect(errorLines(logs)).toEqual([]);
  });
});

describe('a post without the fetcher header', () => {
  test("is answered as before: the page again, every level loaded, the action's result as its actionData", async () => {
    const { app, loads } = guests();
    const res = await post(app, '/guests', { name: 'Ada' }, { ...NAVIGATION, 'Sec-Fetch-Site': 'same-origin' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const [meta] = navigationLines(res.text);
    expect(meta).toMatchObject({ route: '/guests' });
    // The layout loaded before the action as its guard, then again with the page.
    expect(answerValue(res.text, SCOPE)).toMatchObject({ data: { names: ['Ada'] }, actionData: { added: 'Ada' }, layouts: [{ id: 'shell', data: { shellLoads: 2 } }] });
    expect(loads).toEqual({ shell: 2, page: 1 });
  });

  test('with a scope the browser may not ask for gets the document, as any post does', async () => {
    const { app, names } = guests();
    const res = await post(app, '/guests', { name: 'Ada' }, { ...FETCHER, [NAVIGATION_SCOPE_HEADER]: 'no scope!', 'Sec-Fetch-Site': 'same-origin' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(names).toEqual(['Ada']);
  });
});
