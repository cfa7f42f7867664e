import fc from 'fast-check';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { redirect } from '../../shared/api/action-helpers.ts';
import { NAVIGATION_HEADER, NAVIGATION_REDIRECT_HEADER, NAVIGATION_SCOPE_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { defineRoute, type ActionContext, type RouteDefinition } from '../../shared/api/route-definition.ts';
import { buildApp, errorLines, type TestApp } from '../support/build-app.ts';

const SECRET = 'redirect-targets-secret-0123456789-abcdef';
const HOST = 'app.test:8080';

/** The pattern docs/building-an-app.md warns about: an action that sends the visitor on to `?next=`. */
const routes: RouteDefinition[] = [
  defineRoute({
    path: '/login',
    component: () => null,
    action: ({ searchParams }: ActionContext) => redirect(searchParams.get('next') ?? '/'),
  }),
];

function loginApp(): TestApp {
  return buildApp(routes, { forms: { secret: SECRET } });
}

/** Posts the login form with `?next=` set to `next`, as a plain post or as an in-place submission. */
function postLogin(app: TestApp['app'], next: string, inPlace: boolean): request.Test {
  const posted = request(app)
    .post(`/login?${new URLSearchParams({ next })}`)
    .set('Host', HOST)
    .set('Sec-Fetch-Site', 'same-origin');
  if (inPlace) posted.set(NAVIGATION_HEADER, 'data').set(NAVIGATION_SCOPE_HEADER, 'n1');
  return posted.type('form').send({ user: 'ada' });
}

/** A target a browser reads as another host: two or more slashes or backslashes, in any mix. */
const PROTOCOL_RELATIVE = /^[\\/]{2}/;

/** Spellings whose path, once resolved against the posted URL, begins with `//`. */
const DOUBLE_SLASH_PATHS = [
  '/.//evil.example/x',
  '/x/..//evil.example',
  '/%2e//evil.example',
  '/%2E//evil.example',
  '/./\\evil.example',
  '/.\\/evil.example',
  '/.\\\\evil.example',
  '/x/..\\\\evil.example',
  '/x/%2e%2e//evil.example',
  '/.//\\evil.example',
  `http://${HOST}//evil.example`,
  `http://${HOST}/.//evil.example`,
  `http://${HOST}/\\evil.example`,
  'login/..//evil.example',
  './/evil.example',
];

describe('redirect() never answers with a path a browser reads as another host', () => {
  for (const inPlace of [false, true]) {
    const answer = inPlace ? 'in place (204, X-Navigation-Redirect)' : 'posted (303, Location)';
    test.each(DOUBLE_SLASH_PATHS)(`${answer}: ?next=%s is refused with the 500 page and one error line`, async (next) => {
      const { app, logs } = loginApp();
      const res = await postLogin(app, next, inPlace);
      expect(res.status).toBe(500);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers[NAVIGATION_REDIRECT_HEADER]).toBeUndefined();
      const errors = errorLines(logs);
      expect(errors).toHaveLength(1);
      expect(JSON.stringify(errors[0])).toContain('redirect() refused');
      expect(res.text).toContain(String(errors[0]?.digest));
    });
  }

  test.each([
    ['/orders/42?ok=1#top', '/orders/42?ok=1#top'],
    ['/a//b', '/a//b'],
    ['/x/../y', '/y'],
    [`http://${HOST}/thanks`, '/thanks'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    ['/%5Cevil.example', '/%5Cevil.example'],
    ['/?next=//evil.example', '/?next=//evil.example'],
  ])('?next=%s is a path of this site: 303 to %s, and 204 naming it in place', async (next, expected) => {
    const { app, logs } = loginApp();
    const posted = await postLogin(app, next, false);
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe(expected);
    const inPlace = await postLogin(app, next, true);
    expect(inPlace.status).toBe(204);
    expect(inPlace.headers[NAVIGATION_REDIRECT_HEADER]).toBe(expected);
    expect(errorLines(logs)).toEqual([]);
  });

  test('whatever the spelling, a target that is sent resolves to this origin and does not begin with two slashes', async () => {
    const { app } = loginApp();
    const piece = fc.constantFrom('/', '\\', '.', '..', '%2e', '%2E', '%2e%2e', '%2f', '%5c', 'evil.example', 'x', '\t', '?', '#', `http://${HOST}`, 'http:', '@');
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 8 }), fc.boolean(), async (pieces, inPlace) => {
        const res = await postLogin(app, pieces.join(''), inPlace);
        const sent: unknown = inPlace ? res.headers[NAVIGATION_REDIRECT_HEADER] : res.headers.location;
        if (res.status === 500) {
          expect(sent).toBeUndefined();
          return;
        }
        expect(res.status).toBe(inPlace ? 204 : 303);
        expect(typeof sent).toBe('string');
        const target = String(sent);
        expect(target).not.toMatch(PROTOCOL_RELATIVE);
        expect(new URL(target, `http://${HOST}/login`).origin).toBe(`http://${HOST}`);
      }),
      { numRuns: 300 },
    );
  });
});
