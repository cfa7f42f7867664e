import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineRoute, type ActionContext, type RouteDefinition } from '../../shared/api/route-definition.ts';
import { buildApp, errorLines, type TestApp } from '../support/build-app.ts';

/**
 * How an action's body is read (docs/building-an-app.md, "Forms and actions"): urlencoded fields
 * stay flat, whatever brackets their names hold, and a compressed body is refused, JSON as well
 * as a form, rather than inflated in memory past the byte count.
 */

const SECRET = 'form-body-parsing-secret-0123456789-abcd';

function actionApp(): TestApp & { readonly bodies: Array<Readonly<Record<string, unknown>>> } {
  const bodies: Array<Readonly<Record<string, unknown>>> = [];
  const routes: RouteDefinition[] = [
    defineRoute({
      path: '/profile',
      component: () => <h1>Profile</h1>,
      action: ({ body }: ActionContext) => {
        bodies.push(body);
        return { saved: true };
      },
    }),
  ];
  return { ...buildApp(routes, { forms: { secret: SECRET } }), bodies };
}

describe('urlencoded fields', () => {
  test('stay flat: brackets in a name are part of the name, never a nested object', async () => {
    const { app, bodies } = actionApp();
    const res = await request(app).post('/profile').set('Sec-Fetch-Site', 'same-origin').type('form').send('user[name]=Ada&user[role]=admin&tags[]=a&tags[]=b&plain=1');
    expect(res.status).toBe(200);
    expect(bodies).toEqual([{ 'user[name]': 'Ada', 'user[role]': 'admin', 'tags[]': ['a', 'b'], plain: '1' }]);
    expect(Object.keys(bodies[0] ?? {})).not.toContain('user');
  });
});

describe('a compressed body', () => {
  test.each([
    ['JSON', 'application/json', JSON.stringify({ name: 'Ada' })],
    ['a form', 'application/x-www-form-urlencoded', 'name=Ada'],
  ])('%s sent with Content-Encoding: gzip gets 415, and the action never runs', async (_case, type, text) => {
    const { app, bodies, logs } = actionApp();
    const res = await request(app).post('/profile').set('Sec-Fetch-Site', 'same-origin').set('Content-Type', type).set('Content-Encoding', 'gzip').send(gzipSync(text));
    expect(res.status).toBe(415);
    expect(res.text).toMatch(/<title>415: [^<]+<\/title>/);
    expect(bodies).toEqual([]);
    expect(errorLines(logs)).toEqual([]);
  });

  test('the same JSON uncompressed reaches the action (the control case)', async () => {
    const { app, bodies } = actionApp();
    const res = await request(app)
      .post('/profile')
      .set('Sec-Fetch-Site', 'same-origin')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'Ada' }));
    expect(res.status).toBe(200);
    expect(bodies).toEqual([{ name: 'Ada' }]);
  });
});
