import { Suspense, use } from 'react';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineRoute, type RouteDefinition } from '../../shared/api/route-definition.ts';
import { asHydrating, buildApp, errorLines, LEVEL } from '../support/build-app.ts';
import { DESKTOP_CHROME } from '../support/http-client.ts';
import { navigationDataOf, navigationLines } from '../support/navigation-data-lines.ts';
import { inlineScripts, pageDataOf } from '../support/page-data-scripts.ts';
import { after } from '../support/settle-after.ts';

/** A field of a value built in another realm (the page's scripts run in their own context). */
function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) current = typeof current === 'object' && current !== null ? Reflect.get(current, key) : undefined;
  return current;
}

function ownKeys(value: unknown): string[] {
  return typeof value === 'object' && value !== null ? Object.keys(value) : [];
}

const SCOPE = 'n7';
const NAVIGATION = { 'X-Navigation': 'data', 'X-Navigation-Scope': SCOPE, Accept: 'application/x-ndjson, application/json;q=0.9', 'User-Agent': DESKTOP_CHROME };

/** What the browser builds from each answer: the document's data scripts, or the navigation's lines. */
const PATHS = [
  ['document', {}, (body: string) => pageDataOf(body)],
  ['navigation', NAVIGATION, (body: string) => navigationDataOf(body, SCOPE)],
] as const;

class Money {
  readonly cents: number;
  constructor(cents: number) {
    this.cents = cents;
  }
}

class QueryError extends Error {
  override readonly name = 'QueryError';
}

function failedQuery(): Error {
  return Object.assign(new QueryError('the query failed'), { sql: 'SELECT password FROM users' });
}

function Later({ value }: { readonly value: Promise<unknown> }) {
  const settled = use(value);
  return <p>{typeof settled === 'string' ? settled : 'SETTLED'}</p>;
}

/** A profile as a database's JSON column may hold it: with an own key named `__proto__`. */
function profileJson(): unknown {
  return JSON.parse('{"name":"Ada","__proto__":{"isAdmin":true}}');
}

function Profile({ profile }: { readonly profile: unknown }) {
  return (
    <p id="profile">
      admin: {String(at(profile, 'isAdmin'))}; keys: {ownKeys(profile).join(',')}
    </p>
  );
}

const pages: RouteDefinition[] = [
  defineRoute<{ readonly e: Error }>({
    path: '/error-value',
    component: ({ data }) => <p>ERROR-VALUE {data.e.message}</p>,
    load: () => ({ e: failedQuery() }),
  }),
  defineRoute<{ readonly later: Promise<{ readonly e: Error }> }>({
    path: '/deferred-error-value',
    component: ({ data }) => (
      <Suspense fallback={null}>
        <Later value={data.later} />
      </Suspense>
    ),
    load: () => ({ later: after(10, () => ({ e: failedQuery() })) }),
  }),
  defineRoute<{ readonly profile: unknown }>({
    path: '/profile',
    component: ({ data }) => <Profile profile={data.profile} />,
    load: () => ({ profile: profileJson() }),
  }),
  defineRoute<{ readonly later: Promise<{ readonly profile: unknown }> }>({
    path: '/deferred-profile',
    component: ({ data }) => (
      <Suspense fallback={null}>
        <DeferredProfile value={data.later} />
      </Suspense>
    ),
    load: () => ({ later: after(10, () => ({ profile: profileJson() })) }),
  }),
  defineRoute<{
    readonly link: URL;
    readonly when: Date;
    readonly counts: Map<string, number>;
    readonly tags: Set<string>;
    readonly big: bigint;
    readonly pattern: RegExp;
    readonly missing: undefined;
  }>({
    path: '/built-ins',
    component: () => <p>BUILT-INS</p>,
    load: () => ({
      link: new URL('https://example.com/a?b=1'),
      when: new Date(0),
      counts: new Map([['x', 1]]),
      tags: new Set(['t']),
      big: 12345678901234567890n,
      pattern: /a+b/gi,
      missing: undefined,
    }),
  }),
  defineRoute<{ readonly later: Promise<string> }>({
    path: '/deferred-string',
    component: ({ data }) => (
      <Suspense fallback={null}>
        <Later value={data.later} />
      </Suspense>
    ),
    load: () => ({ later: after(10, () => 'LATER-VALUE') }),
  }),
  defineRoute<{ readonly price: Money }>({
    path: '/money',
    component: () => <p>MONEY</p>,
    load: () => ({ price: new Money(500) }),
  }),
  defineRoute<{ readonly slow: Promise<{ readonly items: readonly unknown[] }>; readonly other: Promise<string> }>({
    path: '/deferred-money',
    component: ({ data }) => (
      <>
        <Suspense fallback={<p>SLOW-FALLBACK</p>}>
          <Later value={data.slow} />
        </Suspense>
        <Suspense fallback={<p>OTHER-FALLBACK</p>}>
          <Later value={data.other} />
        </Suspense>
      </>
    ),
    load: () => ({ slow: after(10, () => ({ items: [{ price: new Money(500) }] })), other: after(60, () => 'OTHER-VALUE') }),
  }),
];

function DeferredProfile({ value }: { readonly value: Promise<{ readonly profile: unknown }> }) {
  return <Profile profile={use(value).profile} />;
}

const { routes, assets } = asHydrating(pages);

describe('data that defers nothing', () => {
  test.each(PATHS)('reaches the page with the built-ins it holds: URL, Date, Map, Set, BigInt, RegExp, undefined (%s)', async (_path, headers, dataOf) => {
    const res = await request(buildApp(routes, { assets }).app).get('/built-ins').set(headers);
    expect(res.status).toBe(200);
    const data = at(dataOf(res.text), 'data');
    expect(String(at(data, 'link', 'href'))).toBe('https://example.com/a?b=1');
    expect(Reflect.apply(Date.prototype.getTime, at(data, 'when'), [])).toBe(0);
    expect(Reflect.apply(Map.prototype.get, at(data, 'counts'), ['x'])).toBe(1);
    expect(Reflect.apply(Set.prototype.has, at(data, 'tags'), ['t'])).toBe(true);
    expect(at(data, 'big')).toBe(12345678901234567890n);
    expect(String(at(data, 'pattern'))).toBe('/a+b/gi');
    expect(ownKeys(data)).toContain('missing');
    expect(at(data, 'missing')).toBeUndefined();
  });

  test('its document carries no rejection filter: only deferred values can reject', async () => {
    const { app } = buildApp(routes, { assets });
    const settled = (await request(app).get('/built-ins')).text;
    expect(inlineScripts(settled).join('')).not.toContain('unhandledrejection');
    const deferred = (await request(app).get('/deferred-string').set('User-Agent', DESKTOP_CHROME)).text;
    expect(inlineScripts(deferred).join('')).toContain('unhandledrejection');
  });
});

describe('an Error in the page data', () => {
  test.each(PATHS)('reaches the page with its name and message only in production (%s)', async (_path, headers, dataOf) => {
    const res = await request(buildApp(routes, { assets }).app).get('/error-value').set(headers);
    expect(res.status).toBe(200);
    const body = res.text;
    expect(body).not.toContain('SELECT password');
    // The server's stack names the server's files.
    expect(body).not.toContain('page-data-values.test');
    const e = at(dataOf(body), 'data', 'e');
    expect(at(e, 'name')).toBe('QueryError');
    expect(at(e, 'message')).toBe('the query failed');
    expect(at(e, 'sql')).toBeUndefined();
  });

  test.each(PATHS)('inside a deferred value, too (%s)', async (_path, headers, dataOf) => {
    const res = await request(buildApp(routes, { assets }).app).get('/deferred-error-value').set(headers);
    expect(res.text).not.toContain('SELECT password');
    expect(res.text).not.toContain('page-data-values.test');
    const later: unknown = await at(dataOf(res.text), 'data', 'later');
    expect(at(later, 'e', 'message')).toBe('the query failed');
    expect(at(later, 'e', 'sql')).toBeUndefined();
  });

  test('keeps its stack and own fields in development', async () => {
    const res = await request(buildApp(routes, { assets, development: true }).app).get('/error-value');
    const e = at(pageDataOf(res.text), 'data', 'e');
    expect(at(e, 'sql')).toBe('SELECT password FROM users');
    expect(String(at(e, 'stack'))).toContain('page-data-values.test');
  });
});

describe('a promise inside a Map or a Set', () => {
  test.each(PATHS)('is deferred data like any other: its rejection is one error line, the browser gets only the digest (%s)', async (_path, headers, dataOf) => {
    const failing = () =>
      after(10, (): string => {
        throw Object.assign(new Error('SECRET-IN-MAP'), { sql: 'SELECT password FROM users' });
      });
    const shaped = asHydrating([defineRoute({ path: '/in-map', component: () => <p>IN-MAP</p>, load: () => ({ byId: new Map([['a', failing()]]), set: new Set([failing()]) }) })]);
    const built = buildApp(shaped.routes, { assets: shaped.assets });
    const res = await request(built.app).get('/in-map').set(headers);
    expect(res.text).not.toContain('SECRET-IN-MAP');
    expect(res.text).not.toContain('SELECT password');
    const lines = errorLines(built.logs);
    expect(lines.map((line) => line.err)).toEqual([expect.objectContaining({ message: 'SECRET-IN-MAP' }), expect.objectContaining({ message: 'SECRET-IN-MAP' })]);
    const data = dataOf(res.text);
    const inMap: unknown = Reflect.apply(Map.prototype.get, at(data, 'data', 'byId'), ['a']);
    const [inSet]: unknown[] = [...Reflect.apply(Set.prototype.values, at(data, 'data', 'set'), [])];
    // Each rejects with its own digest: both are read, so neither is left unhandled.
    const digests = lines.map((line) => line.digest);
    await expect(inMap).rejects.toMatchObject({ digest: expect.toBeOneOf(digests) });
    await expect(inSet).rejects.toMatchObject({ digest: expect.toBeOneOf(digests) });
  });
});

describe('an own key named __proto__ in the page data', () => {
  test.each(PATHS)('stays an own key: the page renders and receives what load returned (%s)', async (_path, headers, dataOf) => {
    const res = await request(buildApp(routes, { assets }).app).get('/profile').set(headers);
    const profile = at(dataOf(res.text), 'data', 'profile');
    expect(at(profile, 'isAdmin')).toBeUndefined();
    expect(ownKeys(profile)).toEqual(['name', '__proto__']);
    expect(at(Object.getOwnPropertyDescriptor(profile, '__proto__')?.value, 'isAdmin')).toBe(true);
  });

  test('the server renders what load returned', async () => {
    for (const app of [buildApp(routes, { assets }).app, buildApp(pages).app]) {
      const res = await request(app).get('/profile');
      expect(res.text).toContain('admin: <!-- -->undefined<!-- -->; keys: <!-- -->name,__proto__');
    }
  });

  test.each(PATHS)('inside a deferred value, too (%s)', async (_path, headers, dataOf) => {
    const res = await request(buildApp(routes, { assets }).app).get('/deferred-profile').set(headers);
    if (headers === NAVIGATION) expect(navigationLines(res.text).length).toBe(3);
    else expect(res.text).toContain('admin: <!-- -->undefined<!-- -->; keys: <!-- -->name,__proto__');
    const later: unknown = await at(dataOf(res.text), 'data', 'later');
    expect(at(later, 'profile', 'isAdmin')).toBeUndefined();
    expect(ownKeys(at(later, 'profile'))).toEqual(['name', '__proto__']);
  });
});

describe('a value the browser cannot receive', () => {
  const MESSAGE = 'data.price: an instance of Money cannot be sent to the browser';

  test.each(PATHS)('in the data: the 500 answer with the digest of one error line naming where it is (%s)', async (_path, headers) => {
    const built = buildApp(routes, { assets });
    const res = await request(built.app).get('/money').set(headers);
    expect(res.status).toBe(500);
    const [line, ...others] = errorLines(built.logs);
    expect(others).toEqual([]);
    expect(line).toMatchObject({ level: LEVEL.error, err: { message: MESSAGE }, digest: expect.any(String) });
    expect(res.text).toContain(String(line?.digest));
    expect(res.text).not.toContain('Money');
  });

  test.each(PATHS)('in a deferred value: that value rejects with the digest of one error line; the others still settle (%s)', async (_path, headers, dataOf) => {
    const built = buildApp(routes, { assets });
    const res = await request(built.app).get('/deferred-money').set(headers);
    expect(res.status).toBe(200);
    const [line, ...others] = errorLines(built.logs);
    expect(others).toEqual([]);
    expect(line).toMatchObject({ err: { message: 'data.slow.items[0].price: an instance of Money cannot be sent to the browser' } });
    const digest = String(line?.digest);
    const page = dataOf(res.text);
    await expect(at(page, 'data', 'slow')).rejects.toMatchObject({ digest });
    await expect(at(page, 'data', 'other')).resolves.toBe('OTHER-VALUE');
    if (headers !== NAVIGATION) {
      expect(res.text).toContain('OTHER-VALUE');
      expect(res.text.endsWith('</body></html>')).toBe(true);
      for (const script of inlineScripts(res.text)) expect(script).not.toContain('Money');
    }
  });

  test.each([
    ['data.prices.get("eur"): an instance of Money', { prices: new Map([['eur', new Money(1)]]) }],
    ['data.tags (an item): an instance of Money', { tags: new Set([new Money(1)]) }],
    ['data["unit price"]: an instance of Money', { 'unit price': new Money(1) }],
    ['data.format: a function', { format: (cents: number) => `${cents}` }],
    ['data.rows[1].id: a symbol', { rows: [{ id: 1 }, { id: Symbol('two') }] }],
    ['data.failure.cause: an instance of Money', { failure: new Error('m', { cause: new Money(1) }) }],
  ])('its path says where it is: %s', async (expected, loaded) => {
    const built = buildApp(asHydrating([defineRoute({ path: '/shaped', component: () => <p>SHAPED</p>, load: () => loaded })]).routes, {
      assets: asHydrating([defineRoute({ path: '/shaped', component: () => null })]).assets,
      development: expected.includes('cause'),
    });
    const res = await request(built.app).get('/shaped');
    expect(res.status).toBe(500);
    expect(errorLines(built.logs).map((line) => line.err)).toEqual([expect.objectContaining({ message: `${expected} cannot be sent to the browser` })]);
  });

  test.each([
    ['in the data', '/money', MESSAGE],
    ['in a deferred value', '/deferred-money', 'data.slow.items[0].price: an instance of Money cannot be sent to the browser'],
  ])("%s of a page module served without a client build, as in an app's tests: the same error line as in production", async (_where, path, message) => {
    // No assets: the page renders on the server alone, but production, which hydrates every page module, would refuse it.
    const built = buildApp(routes);
    const res = await request(built.app).get(path);
    expect(res.text).not.toContain('<script src="/assets/fixture.js"');
    expect(errorLines(built.logs).map((line) => line.err)).toEqual([expect.objectContaining({ message })]);
    if (path === '/money') expect(res.status).toBe(500);
  });

  test('a page that ships no JavaScript may hold it: its data never leaves the server', async () => {
    const built = buildApp(pages);
    const res = await request(built.app).get('/money');
    expect(res.status).toBe(200);
    expect(res.text).toContain('MONEY');
    expect(errorLines(built.logs)).toEqual([]);
  });
});
