import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { asHydrating, buildApp, errorLines } from '../support/build-app.ts';
import { DESKTOP_CHROME } from '../support/http-client.ts';
import { pageDataOf } from '../support/page-data-scripts.ts';
import { after } from '../support/settle-after.ts';

/**
 * Shapes of page data as deferData copies them (server/render/deferred-data.ts) and the browser
 * rebuilds them: only an object whose `then` is a function is a promise; an object without a
 * prototype keeps having none, and one with keeps its own; a rejection says no more than the
 * generic sentence and its digest outside development.
 */

function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) current = typeof current === 'object' && current !== null ? Reflect.get(current, key) : undefined;
  return current;
}

const { routes, assets } = asHydrating([
  defineRoute({
    path: '/shapes',
    component: () => <h1>SHAPES</h1>,
    load: () => ({
      // biome-ignore lint/suspicious/noThenProperty: data whose `then` is no function is not a promise, and must not be taken for one
      notAPromise: { then: 'tomorrow', id: 7 },
      dictionary: Object.assign(Object.create(null), { a: 1 }),
      ordinary: { b: 2 },
    }),
  }),
  defineRoute({
    path: '/failing',
    component: () => <h1>FAILING</h1>,
    load: () => ({
      broken: after(10, (): string => {
        throw new Error('SECRET-REASON');
      }),
    }),
  }),
]);

const serverOnly = [
  defineRoute({
    path: '/server-only',
    component: ({ data }: { readonly data: { readonly format: (n: number) => string } }) => <h1>{data.format(42)}</h1>,
    load: () => ({ format: (n: number) => `N-${n}` }),
  }),
];

const keyed = asHydrating([defineRoute({ path: '/keyed', component: () => <h1>KEYED</h1>, load: () => ({ lookup: new Map<unknown, string>([[() => 1, 'x']]) }) })]);

describe('page data shapes', () => {
  test('an object whose then is no function is data like any other, not a promise', async () => {
    const built = buildApp(routes, { assets });
    const res = await request(built.app).get('/shapes').set('User-Agent', DESKTOP_CHROME);
    expect(res.status).toBe(200);
    expect(errorLines(built.logs)).toEqual([]);
    const page = pageDataOf(res.text);
    // biome-ignore lint/suspicious/noThenProperty: the same value, as the browser received it
    expect(at(page, 'data', 'notAPromise')).toEqual({ then: 'tomorrow', id: 7 });
  });

  test('an object without a prototype reaches the browser without one; an ordinary object keeps its own', async () => {
    const res = await request(buildApp(routes, { assets }).app).get('/shapes').set('User-Agent', DESKTOP_CHROME);
    const page = pageDataOf(res.text);
    const dictionary = at(page, 'data', 'dictionary');
    const ordinary = at(page, 'data', 'ordinary');
    expect(typeof dictionary === 'object' && dictionary !== null && Object.getPrototypeOf(dictionary)).toBe(null);
    expect(at(dictionary, 'a')).toBe(1);
    expect(typeof ordinary === 'object' && ordinary !== null && Object.getPrototypeOf(ordinary)).not.toBe(null);
    expect(at(ordinary, 'b')).toBe(2);
  });

  test('a rejection reaches the browser as the generic sentence and its digest alone', async () => {
    const built = buildApp(routes, { assets });
    const res = await request(built.app).get('/failing').set('User-Agent', DESKTOP_CHROME);
    const digest = errorLines(built.logs)[0]?.digest;
    expect(digest).toEqual(expect.any(String));
    await expect(at(pageDataOf(res.text), 'data', 'broken')).rejects.toMatchObject({ message: 'A deferred value could not be loaded.', digest });
  });
});

describe('values only the server may hold', () => {
  test('a page that ships no JavaScript may keep a function in its data: it renders, unchecked', async () => {
    const built = buildApp(serverOnly);
    const res = await request(built.app).get('/server-only');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1>N-42</h1>');
    expect(errorLines(built.logs)).toEqual([]);
  });

  test("a function as a Map's key on a hydrating page: the 500 page, its error line naming where it is", async () => {
    const built = buildApp(keyed.routes, { assets: keyed.assets });
    const res = await request(built.app).get('/keyed').set('User-Agent', DESKTOP_CHROME);
    expect(res.status).toBe(500);
    const errors = errorLines(built.logs);
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain('data.lookup (a key)');
  });
});
