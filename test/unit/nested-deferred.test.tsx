import request from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { defineRoute, type RouteDefinition } from '../../shared/api/route-definition.ts';
import { asHydrating, buildApp, errorLines, LEVEL } from '../support/build-app.ts';
import { closeTestServers, DESKTOP_CHROME, getTimed, listenForTest } from '../support/http-client.ts';
import { pageDataOf } from '../support/page-data-scripts.ts';
import { after } from '../support/settle-after.ts';

/**
 * A deferred value that settles into a value holding promises of its own (docs/building-an-app.md,
 * deferred data): those are controlled as the top-level ones are, whether in an object or in an
 * array. A rejection is logged once and reaches the browser as its digest alone; one still
 * pending at the render timeout is rejected with the timeout's digest, so the page ends.
 */

/** A field of a value built in another realm (the page's scripts run in their own context). */
function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) current = typeof current === 'object' && current !== null ? Reflect.get(current, key) : undefined;
  return current;
}

function failing(message: string): Promise<string> {
  return after(20, (): string => {
    throw new Error(message);
  });
}

const { routes, assets } = asHydrating([
  defineRoute({
    path: '/nested-rejected',
    component: () => <h1>NESTED</h1>,
    load: () => ({
      outer: after(10, () => ({ inner: failing('SECRET-INNER-FAILURE'), list: ['first', failing('SECRET-LISTED-FAILURE')] })),
    }),
  }),
  defineRoute({
    path: '/nested-never',
    component: () => <h1>NESTED-NEVER</h1>,
    load: () => ({
      outer: after(10, () => ({ inner: new Promise<string>(() => undefined), list: [new Promise<string>(() => undefined)] })),
    }),
  }),
] satisfies RouteDefinition[]);

afterEach(closeTestServers);

describe('promises inside a settled deferred value', () => {
  test('a rejection in an object and one in an array: one error line each, and the browser gets only their digests', async () => {
    const built = buildApp(routes, { assets });
    const res = await request(built.app).get('/nested-rejected').set('User-Agent', DESKTOP_CHROME);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('SECRET-INNER-FAILURE');
    expect(res.text).not.toContain('SECRET-LISTED-FAILURE');
    const errors = errorLines(built.logs);
    const digestOf = (message: string) => errors.find((line) => JSON.stringify(line.err).includes(message))?.digest;
    expect(errors).toHaveLength(2);
    for (const line of errors) expect(line).toMatchObject({ level: LEVEL.error, digest: expect.any(String) });
    const innerDigest = digestOf('SECRET-INNER-FAILURE');
    const listedDigest = digestOf('SECRET-LISTED-FAILURE');
    expect(innerDigest).toEqual(expect.any(String));
    expect(listedDigest).toEqual(expect.any(String));

    const outer: unknown = await at(pageDataOf(res.text), 'data', 'outer');
    expect(at(outer, 'list', '0')).toBe('first');
    const inner = at(outer, 'inner');
    const listed = at(outer, 'list', '1');
    await expect(inner).rejects.toMatchObject({ digest: innerDigest });
    await expect(listed).rejects.toMatchObject({ digest: listedDigest });
    // Nothing of the error but its digest: no message, no stack.
    const reason: unknown = await Promise.resolve(inner).catch((error: unknown) => error);
    expect(JSON.stringify({ message: at(reason, 'message'), stack: at(reason, 'stack') })).not.toContain('SECRET');
  });

  test('one in an object and one in an array still pending at the render timeout reject with the timeout digest, and the page ends', async () => {
    const built = buildApp(routes, { assets, pages: { renderTimeoutMs: 300 } });
    const { origin } = await listenForTest(built.app);
    const res = await getTimed(`${origin}/nested-never`, { 'User-Agent': DESKTOP_CHROME });
    expect(res.status).toBe(200);
    expect(res.body.endsWith('</body></html>')).toBe(true);
    const warnings = built.logs.filter((line) => line.msg === 'render timed out');
    expect(warnings).toHaveLength(1);
    const digest = warnings[0]?.digest;
    expect(digest).toEqual(expect.any(String));
    expect(errorLines(built.logs)).toEqual([]);
    const outer: unknown = await at(pageDataOf(res.body), 'data', 'outer');
    await expect(at(outer, 'inner')).rejects.toMatchObject({ digest });
    await expect(at(outer, 'list', '0')).rejects.toMatchObject({ digest });
  });
});
