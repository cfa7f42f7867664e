import type { Server } from 'node:http';
import request from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { CSRF_COOKIE, issueToken } from '../../server/security/csrf.ts';
import { FORM_TOKEN_FIELD } from '../../shared/navigation.ts';
import { defineRoute, type RouteDefinition } from '../../shared/route-definition.ts';
import { buildApp, type LogLine, type TestApp } from '../support/build-app.ts';
import { close, listen } from '../support/http-client.ts';
import { rawRequest } from '../support/raw-http.ts';

/**
 * The edges of the cross-site check (docs/security.md, "Cross-site request forgery") that the
 * common cases of forms.test.tsx leave open: a request without a host to compare an `Origin`
 * with, and tokens that are there but empty.
 */

const SECRET = 'csrf-edges-secret-0123456789-abcdefghijkl';

function formApp(): TestApp & { readonly runs: number[] } {
  const runs: number[] = [];
  const routes: RouteDefinition[] = [
    defineRoute({
      path: '/note',
      component: () => null,
      action: () => {
        runs.push(1);
        return { saved: true };
      },
    }),
  ];
  return { ...buildApp(routes, { forms: { secret: SECRET } }), runs };
}

function refusals(logs: readonly LogLine[]): unknown[] {
  return logs.filter((line) => line.msg === 'csrf refused').map((line) => line.reason);
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(close));
});

describe('an Origin with no host to compare it with', () => {
  test('an HTTP/1.0 post without Host and with a foreign Origin gets 403, origin mismatch, and the action never runs', async () => {
    const built = formApp();
    const { server, origin } = await listen(built.app);
    servers.push(server);
    const body = 'name=Ada';
    const res = await rawRequest(
      Number(new URL(origin).port),
      `POST /note HTTP/1.0\r\nOrigin: http://evil.example\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(res.status).toBe(403);
    expect(res.body).toMatch(/<title>403: [^<]+<\/title>/);
    expect(built.runs).toEqual([]);
    expect(refusals(built.logs)).toEqual(['origin mismatch']);
  });
});

describe('empty tokens count as missing', () => {
  const valid = issueToken(SECRET);

  test.each([
    ['an empty cookie beside a valid field', '', valid],
    ['a valid cookie beside an empty field', valid, ''],
    ['both empty', '', ''],
  ])('%s: 403, missing token', async (_case, cookie, field) => {
    const { app, runs, logs } = formApp();
    const res = await request(app)
      .post('/note')
      .set('Cookie', `${CSRF_COOKIE}=${cookie}`)
      .type('form')
      .send({ name: 'Ada', [FORM_TOKEN_FIELD]: field });
    expect(res.status).toBe(403);
    expect(runs).toEqual([]);
    expect(refusals(logs)).toEqual(['missing token']);
  });

  test('the same valid token in both runs the action (the control case)', async () => {
    const { app, runs, logs } = formApp();
    const res = await request(app)
      .post('/note')
      .set('Cookie', `${CSRF_COOKIE}=${valid}`)
      .type('form')
      .send({ name: 'Ada', [FORM_TOKEN_FIELD]: valid });
    expect(res.status).toBe(200);
    expect(runs).toEqual([1]);
    expect(refusals(logs)).toEqual([]);
  });
});
