import request from 'supertest';
import { createContext, runInContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { NAVIGATION_HEADER, NAVIGATION_SCOPE_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { asHydrating, buildApp, errorLines } from '../support/build-app.ts';
import { DESKTOP_CHROME } from '../support/http-client.ts';
import { navigationLines } from '../support/navigation-data-lines.ts';
import { dataScripts } from '../support/page-data-scripts.ts';
import { after } from '../support/settle-after.ts';

/**
 * The data stream's edges (server/render/data-stream.ts): its first script keeps a deferred
 * value's own rejection from being reported again as unhandled, in the document and in
 * navigation data alike; and a value seroval cannot write in the first script ends in the 500
 * answer, logged once, before anything is sent.
 */

/** A Date of the app's own class: the page data's check lets a Date through, and seroval cannot write the subclass. */
class AppDate extends Date {}

const { routes, assets } = asHydrating([
  defineRoute({
    path: '/rejecting',
    component: () => <h1>REJECTING</h1>,
    load: () => ({
      broken: after(10, (): string => {
        throw new Error('deferred failure');
      }),
    }),
  }),
  defineRoute({ path: '/unwritable', component: () => <h1>UNWRITABLE</h1>, load: () => ({ when: new AppDate(0) }) }),
  defineRoute({ path: '/unwritable-later', component: () => <h1>LATER</h1>, load: () => ({ fast: 'FAST', later: after(10, () => ({ when: new AppDate(0) })) }) }),
]);

type Listener = (event: { readonly reason: unknown; preventDefault(): void }) => void;

/** Runs `scripts` as the browser would and returns the `unhandledrejection` listeners they added. */
function rejectionListeners(scripts: readonly string[]): Listener[] {
  const listeners: Listener[] = [];
  const context = createContext({
    URL,
    addEventListener: (type: string, listener: Listener) => {
      if (type === 'unhandledrejection') listeners.push(listener);
    },
  });
  runInContext('var self = globalThis;', context);
  for (const script of scripts) runInContext(script, context);
  // Node, unlike a browser, calls none of them: the rejected copy is handled here instead.
  runInContext('for (var scope in self.$R) { var page = self.$R[scope][0]; if (page && page.data) page.data.broken.catch(function () {}); }', context);
  return listeners;
}

/** Whether the listeners keep a rejection with this reason from being reported. */
function quiets(listeners: readonly Listener[], reason: unknown): boolean {
  let prevented = false;
  for (const listener of listeners) listener({ reason, preventDefault: () => (prevented = true) });
  return prevented;
}

describe("a deferred value's own rejection is not reported twice", () => {
  test.each([
    ['in the document', async () => dataScripts((await request(buildApp(routes, { assets }).app).get('/rejecting').set('User-Agent', DESKTOP_CHROME)).text)],
    [
      'in navigation data',
      async () =>
        navigationLines(
          (
            await request(buildApp(routes, { assets }).app)
              .get('/rejecting')
              .set({ [NAVIGATION_HEADER]: 'data', [NAVIGATION_SCOPE_HEADER]: 'n3', 'User-Agent': DESKTOP_CHROME })
          ).text,
        )
          .slice(1)
          .map(String),
    ],
  ])('%s: the first script quiets DeferredDataError rejections, and only those', async (_where, scriptsOf) => {
    const listeners = rejectionListeners(await scriptsOf());
    expect(listeners.length).toBeGreaterThan(0);
    expect(quiets(listeners, { name: 'DeferredDataError', digest: 'x' })).toBe(true);
    expect(quiets(listeners, new Error('a bug of the page'))).toBe(false);
    expect(quiets(listeners, undefined)).toBe(false);
  });
});

describe('a value seroval cannot write in the first script', () => {
  test.each([
    ['the document', {}],
    ['navigation data', { [NAVIGATION_HEADER]: 'data', [NAVIGATION_SCOPE_HEADER]: 'n4' }],
  ])("ends %s in the 500 answer, before anything is sent, with one error line carrying seroval's own error", async (_where, headers) => {
    const built = buildApp(routes, { assets });
    const res = await request(built.app)
      .get('/unwritable')
      .set({ 'User-Agent': DESKTOP_CHROME, ...headers });
    expect(res.status).toBe(500);
    const errors = errorLines(built.logs);
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).not.toContain('seroval produced no initial value');
    expect(res.text).toContain(String(errors[0]?.digest));
  });
});

describe('a deferred value seroval cannot write', () => {
  test('ends the navigation data after the lines already sent, with one error line', async () => {
    const built = buildApp(routes, { assets });
    const res = await request(built.app)
      .get('/unwritable-later')
      .set({ [NAVIGATION_HEADER]: 'data', [NAVIGATION_SCOPE_HEADER]: 'n5', 'User-Agent': DESKTOP_CHROME });
    expect(res.status).toBe(200);
    const lines = navigationLines(res.text);
    expect(lines).toHaveLength(2);
    expect(String(lines[1])).toContain('FAST');
    expect(errorLines(built.logs)).toHaveLength(1);
  });
});
