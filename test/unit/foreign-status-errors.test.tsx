import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { notFound } from '../../shared/api/status-helpers.ts';
import { buildApp, errorLines, LEVEL, type LogLine } from '../support/build-app.ts';

const SECRET = 'foreign-status-secret-0123456789-abcdefgh';

/** What http-errors' `createError(404)` makes, and what many HTTP clients throw for an upstream's 404. */
function httpErrorsShaped(status: number, message: string): Error {
  return Object.assign(new Error(message), { status, statusCode: status, expose: status < 500 });
}

function NotShown(): never {
  throw httpErrorsShaped(404, 'upstream record missing (render)');
}

const routes = [
  defineRoute({
    path: '/orders/:id',
    component: () => <h1>ORDER</h1>,
    load: () => {
      throw httpErrorsShaped(404, 'upstream record missing (load)');
    },
  }),
  defineRoute({
    path: '/unexposed/:id',
    component: () => <h1>UNEXPOSED</h1>,
    load: () => {
      // Shaped like a body parser's refusal (a type, a 4xx status) but not one the client may see.
      throw Object.assign(new Error('upstream refused (load)'), { status: 403, type: 'upstream.refused', expose: false });
    },
  }),
  defineRoute({ path: '/render/:id', component: NotShown }),
  defineRoute({ path: '/helper/:id', component: () => <h1>HELPER</h1>, load: () => notFound() }),
  defineRoute({
    path: '/signup',
    component: () => <h1>SIGNUP</h1>,
    action: () => {
      throw httpErrorsShaped(403, 'upstream refused (action)');
    },
  }),
];

/** Every line but the completion line: what the app had to say about the request. */
function saidLines(logs: readonly LogLine[]): LogLine[] {
  return logs.filter((line) => line.msg !== 'request completed');
}

function digestOf(html: string): string | undefined {
  return /Digest: ([A-Za-z0-9_-]+)/.exec(html)?.[1];
}

describe('an error that carries a status but is not a status helper', () => {
  test.each([
    ['thrown in load', '/orders/7', '/orders/:id', 404],
    ['thrown while the shell renders', '/render/7', '/render/:id', 404],
    ["shaped like a body parser's refusal but not exposed, thrown in load", '/unexposed/7', '/unexposed/:id', 403],
  ] as const)('%s: the 500 page and one error line with the route, the status and the digest', async (_case, path, route, status) => {
    const { app, logs } = buildApp(routes, { forms: { secret: SECRET } });
    const res = await request(app).get(path);
    expect(res.status).toBe(500);
    expect(res.text).toContain('<title>500: Internal Server Error.</title>');
    const said = saidLines(logs);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ level: LEVEL.error, msg: 'server error', route, digest: digestOf(res.text), err: { status } });
  });

  test('thrown in an action: the 500 page and one error line with the route and the status', async () => {
    const { app, logs } = buildApp(routes, { forms: { secret: SECRET } });
    const res = await request(app).post('/signup').set('Sec-Fetch-Site', 'same-origin').type('form').send({ name: 'Ada' });
    expect(res.status).toBe(500);
    const said = saidLines(logs);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ level: LEVEL.error, route: '/signup', digest: digestOf(res.text), err: { status: 403 } });
  });

  test('a status helper still makes its status page, with no line but the completion line', async () => {
    const { app, logs } = buildApp(routes, { forms: { secret: SECRET } });
    const res = await request(app).get('/helper/7');
    expect(res.status).toBe(404);
    expect(res.text).toContain('<title>404: This page could not be found.</title>');
    expect(saidLines(logs)).toEqual([]);
  });
});

describe("Express's own body parsers keep their status pages and log as before", () => {
  const post = (app: Parameters<typeof request>[0]) => request(app).post('/signup').set('Sec-Fetch-Site', 'same-origin');

  test.each([
    ['JSON that does not parse', 400, (app: Parameters<typeof request>[0]) => post(app).set('Content-Type', 'application/json').send('{"name": ')],
    ['a charset the parser does not know', 415, (app: Parameters<typeof request>[0]) => post(app).set('Content-Type', 'application/json; charset=klingon').send('{}')],
    [
      'more form fields than the parser takes',
      413,
      (app: Parameters<typeof request>[0]) =>
        post(app)
          .type('form')
          .send(Array.from({ length: 1_001 }, (_, i) => `f${i}=1`).join('&')),
    ],
  ] as const)('%s: %i, and no line but the completion line', async (_case, status, send) => {
    const { app, logs } = buildApp(routes, { forms: { secret: SECRET } });
    const res = await send(app);
    expect(res.status).toBe(status);
    expect(res.text).toContain(`<title>${status}: `);
    expect(errorLines(logs)).toEqual([]);
    expect(saidLines(logs)).toEqual([]);
  });
});
